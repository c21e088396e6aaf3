import { z } from '@hono/zod-openapi';

/** `POST /v1/audio/speech` (spec): the answer is a hosted MP3 link, never audio bytes. */
export const SpeechRequest = z
  .object({
    model: z.string().min(1).openapi({ example: 'openai/gpt-4o-mini-tts' }),
    input: z.string().min(1).max(10_000),
    voice: z.string().max(100).optional().openapi({ description: 'A voice name or id; empty means the model default.' }),
  })
  .openapi('SpeechRequest');

export type SpeechInput = z.output<typeof SpeechRequest>;
