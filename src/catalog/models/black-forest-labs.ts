import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/**
 * Black Forest Labs FLUX image models on fal and Replicate. Prices are per image at ~1 MP
 * (1024x1024); fal bills FLUX.1 [schnell]/[dev] and FLUX.2 [pro] per megapixel.
 * Kontext on fal has separate text-to-image and edit endpoints; on Replicate one model takes an
 * optional `input_image`.
 */
export const blackForestLabs = [
  {
    type: 'image',
    id: 'black-forest-labs/flux-1-schnell',
    displayName: 'FLUX.1 [schnell]',
    maker: 'black-forest-labs',
    released: '2024-08-01',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/flux/schnell', perImage: 0.003, source: falPage('fal-ai/flux/schnell') },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-schnell', perImage: 0.003, source: replicatePage('black-forest-labs/flux-schnell') },
    ],
  },
  {
    type: 'image',
    id: 'black-forest-labs/flux-1-dev',
    displayName: 'FLUX.1 [dev]',
    maker: 'black-forest-labs',
    released: '2024-08-01',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/flux/dev', perImage: 0.025, source: falPage('fal-ai/flux/dev') },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-dev', perImage: 0.025, source: replicatePage('black-forest-labs/flux-dev') },
    ],
  },
  {
    type: 'image',
    id: 'black-forest-labs/flux-1.1-pro',
    displayName: 'FLUX1.1 [pro]',
    maker: 'black-forest-labs',
    released: '2024-10-02',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/flux-pro/v1.1', perImage: 0.04, source: falPage('fal-ai/flux-pro/v1.1') },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-1.1-pro', perImage: 0.04, source: replicatePage('black-forest-labs/flux-1.1-pro') },
    ],
  },
  {
    type: 'image',
    id: 'black-forest-labs/flux-1.1-pro-ultra',
    displayName: 'FLUX1.1 [pro] ultra',
    maker: 'black-forest-labs',
    released: '2024-11-06',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/flux-pro/v1.1-ultra', perImage: 0.06, source: falPage('fal-ai/flux-pro/v1.1-ultra') },
      {
        provider: 'replicate',
        upstreamId: 'black-forest-labs/flux-1.1-pro-ultra',
        perImage: 0.06,
        source: replicatePage('black-forest-labs/flux-1.1-pro-ultra'),
      },
    ],
  },
  {
    type: 'image',
    id: 'black-forest-labs/flux-1-kontext-pro',
    displayName: 'FLUX.1 Kontext [pro]',
    maker: 'black-forest-labs',
    released: '2025-05-29',
    imageEdit: true,
    maxReferenceImages: 1,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/flux-pro/kontext/text-to-image',
        editUpstreamId: 'fal-ai/flux-pro/kontext',
        perImage: 0.04,
        source: falPage('fal-ai/flux-pro/kontext'),
      },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-kontext-pro', referenceInput: { field: 'input_image', list: false }, perImage: 0.04, source: replicatePage('black-forest-labs/flux-kontext-pro') },
    ],
  },
  {
    type: 'image',
    id: 'black-forest-labs/flux-1-kontext-max',
    displayName: 'FLUX.1 Kontext [max]',
    maker: 'black-forest-labs',
    released: '2025-05-29',
    imageEdit: true,
    maxReferenceImages: 1,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/flux-pro/kontext/max/text-to-image',
        editUpstreamId: 'fal-ai/flux-pro/kontext/max',
        perImage: 0.08,
        source: falPage('fal-ai/flux-pro/kontext/max'),
      },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-kontext-max', referenceInput: { field: 'input_image', list: false }, perImage: 0.08, source: replicatePage('black-forest-labs/flux-kontext-max') },
    ],
  },
  {
    // Edit-only open-weight Kontext: the request must carry the image to edit.
    type: 'image',
    id: 'black-forest-labs/flux-1-kontext-dev',
    displayName: 'FLUX.1 Kontext [dev]',
    maker: 'black-forest-labs',
    released: '2025-06-26',
    imageEdit: true,
    maxReferenceImages: 1,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/flux-kontext/dev',
        editUpstreamId: 'fal-ai/flux-kontext/dev',
        perImage: 0.025,
        source: falPage('fal-ai/flux-kontext/dev'),
      },
      { provider: 'replicate', upstreamId: 'black-forest-labs/flux-kontext-dev', referenceInput: { field: 'input_image', list: false }, perImage: 0.025, source: replicatePage('black-forest-labs/flux-kontext-dev') },
    ],
  },
  {
    // $0.03 for the first output megapixel; multi-reference editing on the /edit endpoint.
    type: 'image',
    id: 'black-forest-labs/flux-2-pro',
    displayName: 'FLUX.2 [pro]',
    maker: 'black-forest-labs',
    released: '2025-11-25',
    imageEdit: true,
    maxReferenceImages: 8,
    routes: [
      { provider: 'fal', upstreamId: 'fal-ai/flux-2-pro', editUpstreamId: 'fal-ai/flux-2-pro/edit', perImage: 0.03, source: falPage('fal-ai/flux-2-pro') },
    ],
  },
] satisfies readonly CatalogModel[];
