import type { RouteSpec } from '../contract';

/** Transcription: audio to text, billed per second of audio the gateway measures. */
export const TRANSCRIPTION = {
  transcribe: { method: 'post', path: '/v1/audio/transcriptions', billed: 'transcription' },
} as const satisfies Record<string, RouteSpec>;
