import type { CatalogModel } from '../types';
import { falPage } from './sources';

/** HiDream-I1 open-weight image models on fal (per ~1 MP image). */
export const hidream = [
  {
    type: 'image',
    id: 'hidream/hidream-i1-full',
    displayName: 'HiDream-I1 Full',
    maker: 'hidream',
    released: '2025-04-07',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'fal', upstreamId: 'fal-ai/hidream-i1-full', perImage: 0.05, source: falPage('fal-ai/hidream-i1-full') }],
  },
  {
    type: 'image',
    id: 'hidream/hidream-i1-dev',
    displayName: 'HiDream-I1 Dev',
    maker: 'hidream',
    released: '2025-04-07',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'fal', upstreamId: 'fal-ai/hidream-i1-dev', perImage: 0.03, source: falPage('fal-ai/hidream-i1-dev') }],
  },
  {
    type: 'image',
    id: 'hidream/hidream-i1-fast',
    displayName: 'HiDream-I1 Fast',
    maker: 'hidream',
    released: '2025-04-07',
    imageEdit: false,
    maxReferenceImages: 0,
    routes: [{ provider: 'fal', upstreamId: 'fal-ai/hidream-i1-fast', perImage: 0.01, source: falPage('fal-ai/hidream-i1-fast') }],
  },
] satisfies readonly CatalogModel[];
