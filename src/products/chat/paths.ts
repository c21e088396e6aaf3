import type { RouteSpec } from '../contract';

/** Chat's routes: one wire format today (Chat Completions); Messages and Responses join as routes of this product. */
export const CHAT = {
  completions: { method: 'post', path: '/v1/chat/completions', billed: 'chat' },
} as const satisfies Record<string, RouteSpec>;
