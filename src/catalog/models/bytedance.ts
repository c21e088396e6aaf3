import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * ByteDance Seed models: Seedream (image) and Seedance (video) on fal and Replicate.
 * Seedance on fal is billed per video token, tokens = height x width x 24 fps x seconds / 1024;
 * the per-second prices below are that formula at 16:9 for each resolution.
 */
export const bytedance = [
  {
    type: 'image',
    id: 'bytedance/seedream-3',
    displayName: 'Seedream 3.0',
    maker: 'bytedance',
    released: '2025-04-15',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/bytedance/seedream/v3/text-to-image', perImage: 0.03, source: falPage('fal-ai/bytedance/seedream/v3/text-to-image') },
      { provider: 'replicate', upstreamId: 'bytedance/seedream-3', perImage: 0.03, source: replicatePage('bytedance/seedream-3') },
    ],
  },
  {
    type: 'image',
    id: 'bytedance/seedream-4',
    displayName: 'Seedream 4.0',
    maker: 'bytedance',
    released: '2025-09-09',
    imageEdit: true,
    maxReferenceImages: 10,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/bytedance/seedream/v4/text-to-image',
        editUpstreamId: 'fal-ai/bytedance/seedream/v4/edit',
        perImage: 0.03,
        source: falPage('fal-ai/bytedance/seedream/v4/text-to-image'),
      },
      { provider: 'replicate', upstreamId: 'bytedance/seedream-4', referenceInput: { field: 'image_input', list: true }, perImage: 0.03, source: replicatePage('bytedance/seedream-4') },
    ],
  },
  {
    // $2.50 per 1M video tokens: a 1080p 5 s clip is about $0.62. Image-to-video: .../v1/pro/image-to-video.
    type: 'video',
    id: 'bytedance/seedance-1-pro',
    displayName: 'Seedance 1.0 Pro',
    maker: 'bytedance',
    released: '2025-06-16',
    durations: range(2, 12),
    defaultDuration: 5,
    resolutions: ['480p', '720p', '1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/bytedance/seedance/v1/pro/text-to-video',
        perSecond: { '480p': 0.024, '720p': 0.054, '1080p': 0.124 },
        source: falPage('fal-ai/bytedance/seedance/v1/pro/text-to-video'),
        // https://fal.ai/models/fal-ai/bytedance/seedance/v1/pro/image-to-video: image_url, the same ratios, seed.
        endpoints: { image: { upstreamId: 'fal-ai/bytedance/seedance/v1/pro/image-to-video' } },
      },
    ],
  },
  {
    // With audio: $2.40 per 1M video tokens (a 720p 5 s clip is about $0.26); without audio $1.20.
    type: 'video',
    id: 'bytedance/seedance-1.5-pro',
    displayName: 'Seedance 1.5 Pro',
    maker: 'bytedance',
    released: '2025-12-16',
    durations: range(4, 12),
    defaultDuration: 5,
    resolutions: ['480p', '720p', '1080p'],
    audio: true,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/bytedance/seedance/v1.5/pro/text-to-video',
        perSecond: { '480p': 0.023, '720p': 0.052, '1080p': 0.117 },
        source: falPage('fal-ai/bytedance/seedance/v1.5/pro/text-to-video'),
        // https://fal.ai/models/fal-ai/bytedance/seedance/v1.5/pro/image-to-video/llms.txt: image_url, the same ratios,
        // seed; "supports start & end frame", the last frame as end_image_url (the name fal's Seedance pages use).
        endpoints: { image: { upstreamId: 'fal-ai/bytedance/seedance/v1.5/pro/image-to-video', last: 'end_image_url' } },
      },
    ],
  },
] satisfies readonly CatalogModel[];
