import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/** Recraft image models on fal and Replicate. */
export const recraft = [
  {
    // Raster styles; fal bills vector styles at $0.08.
    type: 'image',
    id: 'recraft/recraft-v3',
    displayName: 'Recraft V3',
    maker: 'recraft',
    released: '2024-10-30',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/recraft/v3/text-to-image', perImage: 0.04, source: falPage('fal-ai/recraft/v3/text-to-image') },
      { provider: 'replicate', upstreamId: 'recraft-ai/recraft-v3', perImage: 0.04, source: replicatePage('recraft-ai/recraft-v3') },
    ],
  },
  {
    // SVG (vector) output.
    type: 'image',
    id: 'recraft/recraft-v3-svg',
    displayName: 'Recraft V3 SVG',
    maker: 'recraft',
    released: '2024-10-30',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'recraft-ai/recraft-v3-svg', perImage: 0.08, source: replicatePage('recraft-ai/recraft-v3-svg') }],
  },
] satisfies readonly CatalogModel[];
