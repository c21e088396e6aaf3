import type { RouteSpec } from '../contract';

/** Videos: a job submitted, then polled by id. */
export const VIDEOS = {
  submit: { method: 'post', path: '/v1/videos/generations', billed: 'videos' },
  get: { method: 'get', path: '/v1/videos/generations/{id}' },
} as const satisfies Record<string, RouteSpec>;
