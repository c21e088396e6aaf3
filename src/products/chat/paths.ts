import type { RouteSpec } from '../contract';

/** Chat's routes: one pipeline in each wire format (D30); Messages' token count is free (never holds). */
export const CHAT = {
  completions: { method: 'post', path: '/v1/chat/completions', billed: 'chat' },
  messages: { method: 'post', path: '/v1/messages', billed: 'chat' },
  countTokens: { method: 'post', path: '/v1/messages/count_tokens' },
} as const satisfies Record<string, RouteSpec>;
