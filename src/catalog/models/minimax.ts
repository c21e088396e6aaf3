import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/** MiniMax (Hailuo) video and image models on fal and Replicate. */
export const minimax = [
  {
    // Native 768P ($0.045/s; 512P about $0.017/s). VideoResolution has no 768p value, so it is listed as 720p.
    type: 'video',
    id: 'minimax/hailuo-02-standard',
    displayName: 'Hailuo 02 Standard',
    maker: 'minimax',
    released: '2025-06-18',
    durations: [6, 10],
    defaultDuration: 6,
    resolutions: ['720p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/minimax/hailuo-02/standard/text-to-video',
        perSecond: { '720p': 0.045 },
        source: falPage('fal-ai/minimax/hailuo-02/standard/text-to-video'),
        // https://fal.ai/models/fal-ai/minimax/hailuo-02/standard/image-to-video: image_url, end_image_url.
        endpoints: { image: { upstreamId: 'fal-ai/minimax/hailuo-02/standard/image-to-video', last: 'end_image_url' } },
      },
    ],
  },
  {
    // 1080p, 6 s clips only.
    type: 'video',
    id: 'minimax/hailuo-02-pro',
    displayName: 'Hailuo 02 Pro',
    maker: 'minimax',
    released: '2025-06-18',
    durations: [6],
    defaultDuration: 6,
    resolutions: ['1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/minimax/hailuo-02/pro/text-to-video',
        perSecond: { '1080p': 0.08 },
        source: falPage('fal-ai/minimax/hailuo-02/pro/text-to-video'),
        // https://fal.ai/models/fal-ai/minimax/hailuo-02/pro/image-to-video/llms.txt ($0.08/s, 6 s for $0.48):
        // prompt, image_url (required), prompt_optimizer, end_image_url; no duration (always 6 s).
        endpoints: { image: { upstreamId: 'fal-ai/minimax/hailuo-02/pro/image-to-video', last: 'end_image_url', lacks: ['duration'] } },
      },
    ],
  },
  {
    // Takes one optional subject reference image.
    type: 'image',
    id: 'minimax/image-01',
    displayName: 'MiniMax Image-01',
    maker: 'minimax',
    released: '2025-03-05',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'replicate', upstreamId: 'minimax/image-01', perImage: 0.01, source: replicatePage('minimax/image-01') },
      { provider: 'fal', upstreamId: 'fal-ai/minimax/image-01', perImage: 0.01, source: falPage('fal-ai/minimax/image-01') },
    ],
  },
] satisfies readonly CatalogModel[];
