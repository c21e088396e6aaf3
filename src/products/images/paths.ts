import type { RouteSpec } from '../contract';

/** Images: generated inline, or as a job polled by id. */
export const IMAGES = {
  generate: { method: 'post', path: '/v1/images/generations', billed: 'images' },
  submitJob: { method: 'post', path: '/v1/images/jobs', billed: 'images' },
  getJob: { method: 'get', path: '/v1/images/jobs/{id}' },
} as const satisfies Record<string, RouteSpec>;
