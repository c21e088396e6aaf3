import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/**
 * Luma AI models. Ray 2 on fal: $0.50 per 5 s at the default 540p ($0.10/s), 2x at 720p and
 * 4x at 1080p; 9 s clips cost twice a 5 s clip. VideoResolution has no 540p value, so only 720p
 * and 1080p are listed. Image-to-video: `<id>/image-to-video`.
 */
export const luma = [
  {
    type: 'video',
    id: 'luma/ray-2',
    displayName: 'Ray 2',
    maker: 'luma',
    released: '2025-01-15',
    durations: [5, 9],
    defaultDuration: 5,
    resolutions: ['720p', '1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/luma-dream-machine/ray-2',
        perSecond: { '720p': 0.2, '1080p': 0.4 },
        source: falPage('fal-ai/luma-dream-machine/ray-2'),
        // https://fal.ai/models/fal-ai/luma-dream-machine/ray-2/image-to-video
        endpoints: { image: { upstreamId: 'fal-ai/luma-dream-machine/ray-2/image-to-video' } },
      },
    ],
  },
  {
    // Half the Ray 2 price: $0.25 per 5 s at 540p.
    type: 'video',
    id: 'luma/ray-2-flash',
    displayName: 'Ray 2 Flash',
    maker: 'luma',
    released: '2025-03-18',
    durations: [5, 9],
    defaultDuration: 5,
    resolutions: ['720p', '1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/luma-dream-machine/ray-2-flash',
        perSecond: { '720p': 0.1, '1080p': 0.2 },
        source: falPage('fal-ai/luma-dream-machine/ray-2-flash'),
        // https://fal.ai/models/fal-ai/luma-dream-machine/ray-2-flash/image-to-video: image_url and end_image_url.
        endpoints: { image: { upstreamId: 'fal-ai/luma-dream-machine/ray-2-flash/image-to-video', last: 'end_image_url' } },
      },
    ],
  },
  {
    type: 'image',
    id: 'luma/photon',
    displayName: 'Photon',
    maker: 'luma',
    released: '2024-12-03',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'luma/photon', perImage: 0.03, source: replicatePage('luma/photon') }],
  },
  {
    type: 'image',
    id: 'luma/photon-flash',
    displayName: 'Photon Flash',
    maker: 'luma',
    released: '2024-12-03',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'luma/photon-flash', perImage: 0.01, source: replicatePage('luma/photon-flash') }],
  },
] satisfies readonly CatalogModel[];
