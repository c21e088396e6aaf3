import type { RouteSpec } from '../contract';

/** Speech: text to a hosted MP3. */
export const SPEECH = {
  speak: { method: 'post', path: '/v1/audio/speech', billed: 'speech' },
} as const satisfies Record<string, RouteSpec>;
