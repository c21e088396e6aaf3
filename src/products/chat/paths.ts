import type { RouteSpec } from '../contract';

/** Chat's routes: one pipeline in three wire formats (D30); Responses adds its stored responses' reads. */
export const CHAT = {
  completions: { method: 'post', path: '/v1/chat/completions', billed: 'chat' },
  responses: { method: 'post', path: '/v1/responses', billed: 'chat' },
  getResponse: { method: 'get', path: '/v1/responses/{id}' },
  deleteResponse: { method: 'delete', path: '/v1/responses/{id}' },
  inputItems: { method: 'get', path: '/v1/responses/{id}/input_items' },
} as const satisfies Record<string, RouteSpec>;
