import type { RouteSpec } from '../contract';

/** Chat's routes: one pipeline in three wire formats (D30); Messages' token count is free (never holds), and Responses adds its stored responses' reads. */
export const CHAT = {
  completions: { method: 'post', path: '/v1/chat/completions', billed: 'chat' },
  messages: { method: 'post', path: '/v1/messages', billed: 'chat' },
  countTokens: { method: 'post', path: '/v1/messages/count_tokens' },
  responses: { method: 'post', path: '/v1/responses', billed: 'chat' },
  getResponse: { method: 'get', path: '/v1/responses/{id}' },
  deleteResponse: { method: 'delete', path: '/v1/responses/{id}' },
  inputItems: { method: 'get', path: '/v1/responses/{id}/input_items' },
} as const satisfies Record<string, RouteSpec>;
