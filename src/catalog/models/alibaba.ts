import type { CatalogModel } from '../types';
import { falPage } from './sources';

/** Alibaba Tongyi Wan video models on fal. */
export const alibaba = [
  {
    // Billed per video second at 16 fps: $0.04 (480p), $0.06 (580p), $0.08 (720p). The default
    // 81 frames make a ~5 s clip; length is set in frames, not seconds. Image-to-video:
    // fal-ai/wan/v2.2-a14b/image-to-video.
    type: 'video',
    id: 'alibaba/wan-2.2-a14b',
    displayName: 'Wan 2.2 A14B',
    maker: 'alibaba',
    released: '2025-07-28',
    durations: [5],
    defaultDuration: 5,
    resolutions: ['480p', '720p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/wan/v2.2-a14b/text-to-video',
        perSecond: { '480p': 0.04, '720p': 0.08 },
        source: falPage('fal-ai/wan/v2.2-a14b/text-to-video'),
        // https://fal.ai/models/fal-ai/wan/v2.2-a14b/image-to-video/llms.txt: image_url, seed, resolution, aspect_ratio,
        // and a last frame as end_image_url ("URL of the end image").
        endpoints: { image: { upstreamId: 'fal-ai/wan/v2.2-a14b/image-to-video', last: 'end_image_url' } },
      },
    ],
  },
] satisfies readonly CatalogModel[];
