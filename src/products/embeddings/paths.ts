import type { RouteSpec } from '../contract';

/** Embeddings: text or token arrays to vectors, in OpenAI's shape. */
export const EMBEDDINGS = {
  create: { method: 'post', path: '/v1/embeddings', billed: 'embeddings' },
} as const satisfies Record<string, RouteSpec>;
