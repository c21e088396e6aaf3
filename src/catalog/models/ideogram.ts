import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/** Ideogram image models on fal and Replicate. */
export const ideogram = [
  {
    // fal's `rendering_speed`: TURBO = low ($0.03), BALANCED = medium ($0.06), QUALITY = high ($0.09).
    type: 'image',
    id: 'ideogram/ideogram-v3',
    displayName: 'Ideogram 3.0',
    maker: 'ideogram',
    released: '2025-03-26',
    imageEdit: false,
    maxReferenceImages: 0,
    qualities: ['low', 'medium', 'high'],
    routes: [{ provider: 'fal', upstreamId: 'fal-ai/ideogram/v3', perImage: { low: 0.03, medium: 0.06, high: 0.09 }, source: falPage('fal-ai/ideogram/v3') }],
  },
  {
    type: 'image',
    id: 'ideogram/ideogram-v3-turbo',
    displayName: 'Ideogram 3.0 Turbo',
    maker: 'ideogram',
    released: '2025-03-26',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'ideogram-ai/ideogram-v3-turbo', perImage: 0.03, source: replicatePage('ideogram-ai/ideogram-v3-turbo') }],
  },
  {
    type: 'image',
    id: 'ideogram/ideogram-v3-quality',
    displayName: 'Ideogram 3.0 Quality',
    maker: 'ideogram',
    released: '2025-03-26',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'ideogram-ai/ideogram-v3-quality', perImage: 0.09, source: replicatePage('ideogram-ai/ideogram-v3-quality') }],
  },
  {
    type: 'image',
    id: 'ideogram/ideogram-v2',
    displayName: 'Ideogram 2.0',
    maker: 'ideogram',
    released: '2024-08-21',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'replicate', upstreamId: 'ideogram-ai/ideogram-v2', perImage: 0.08, source: replicatePage('ideogram-ai/ideogram-v2') },
      { provider: 'fal', upstreamId: 'fal-ai/ideogram/v2', perImage: 0.08, source: falPage('fal-ai/ideogram/v2') },
    ],
  },
  {
    type: 'image',
    id: 'ideogram/ideogram-v2-turbo',
    displayName: 'Ideogram 2.0 Turbo',
    maker: 'ideogram',
    released: '2024-08-21',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'replicate', upstreamId: 'ideogram-ai/ideogram-v2-turbo', perImage: 0.05, source: replicatePage('ideogram-ai/ideogram-v2-turbo') }],
  },
] satisfies readonly CatalogModel[];
