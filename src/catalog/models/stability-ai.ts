import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/** Stability AI Stable Diffusion 3.5 models on Replicate and fal. */
export const stabilityAi = [
  {
    type: 'image',
    id: 'stability-ai/stable-diffusion-3.5-large',
    displayName: 'Stable Diffusion 3.5 Large',
    maker: 'stability-ai',
    released: '2024-10-22',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      {
        provider: 'replicate',
        upstreamId: 'stability-ai/stable-diffusion-3.5-large',
        perImage: 0.065,
        source: replicatePage('stability-ai/stable-diffusion-3.5-large'),
      },
      { provider: 'fal', upstreamId: 'fal-ai/stable-diffusion-v35-large', perImage: 0.065, source: falPage('fal-ai/stable-diffusion-v35-large') },
    ],
  },
  {
    type: 'image',
    id: 'stability-ai/stable-diffusion-3.5-large-turbo',
    displayName: 'Stable Diffusion 3.5 Large Turbo',
    maker: 'stability-ai',
    released: '2024-10-22',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      {
        provider: 'replicate',
        upstreamId: 'stability-ai/stable-diffusion-3.5-large-turbo',
        perImage: 0.04,
        source: replicatePage('stability-ai/stable-diffusion-3.5-large-turbo'),
      },
    ],
  },
  {
    type: 'image',
    id: 'stability-ai/stable-diffusion-3.5-medium',
    displayName: 'Stable Diffusion 3.5 Medium',
    maker: 'stability-ai',
    released: '2024-10-29',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      {
        provider: 'replicate',
        upstreamId: 'stability-ai/stable-diffusion-3.5-medium',
        perImage: 0.035,
        source: replicatePage('stability-ai/stable-diffusion-3.5-medium'),
      },
    ],
  },
] satisfies readonly CatalogModel[];
