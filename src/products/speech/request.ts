import { z } from '@hono/zod-openapi';

/** `POST /v1/audio/speech` (spec): the answer is a hosted MP3 link, never audio bytes. */
export const SpeechRequest = z
  .object({
    model: z.string().min(1).openapi({ example: 'openai/gpt-4o-mini-tts' }),
    input: z.string().min(1).max(10_000),
    // A name or id goes into the upstream's URL: letters, digits, spaces and . _ ' - only (a
    // lone surrogate made encodeURIComponent throw, a 500 after the hold).
    voice: z
      .string()
      .max(100)
      .regex(/^[\p{L}\p{N} ._'-]*$/u, "must be a voice name or id: letters, digits, spaces and . _ ' -")
      .optional()
      .openapi({ description: 'A voice name or id; empty means the model default.' }),
  })
  .openapi('SpeechRequest');

export type SpeechInput = z.output<typeof SpeechRequest>;
