import { z } from '@hono/zod-openapi';

/** What a transcription takes besides its audio, in either body (multipart fields or JSON members). */
export const TranscriptionOptions = z.object({
  model: z.string().min(1).openapi({ example: 'openai/whisper-1' }),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'must be an ISO 639-1 or 639-3 language code, such as en')
    .optional()
    .openapi({ description: 'The language spoken (ISO 639-1, `en`); absent: detected.' }),
  prompt: z.string().max(4000).optional().openapi({ description: 'Text to guide the style or spelling (OpenAI and Groq models only).' }),
  response_format: z.enum(['json', 'text', 'verbose_json']).default('json'),
  temperature: z.coerce.number().min(0).max(1).optional(),
});

/**
 * The JSON body (MCP's `transcribe`, `POST /v1/quote`): the audio is one of the account's uploads,
 * named by its `public_url`.
 */
export const TranscriptionJson = TranscriptionOptions.extend({
  file_url: z.url().max(2048).openapi({ description: 'The public_url of one of your uploads (POST /v1/uploads): MP3, WAV or M4A.' }),
}).openapi('TranscriptionRequest');

export type TranscriptionInput = z.output<typeof TranscriptionOptions>;

/** The multipart body, as the OpenAPI document shows it (it is read as a stream, not by a validator). */
export const TRANSCRIPTION_MULTIPART_SCHEMA = {
  type: 'object' as const,
  required: ['model'],
  properties: {
    file: { type: 'string' as const, format: 'binary', description: 'The audio: MP3, WAV or M4A, at most 25 MB. Give this or file_url.' },
    file_url: { type: 'string' as const, format: 'uri', description: 'The public_url of one of your uploads, instead of a file.' },
    model: { type: 'string' as const, example: 'openai/whisper-1' },
    language: { type: 'string' as const, example: 'en' },
    prompt: { type: 'string' as const },
    response_format: { type: 'string' as const, enum: ['json', 'text', 'verbose_json'], default: 'json' },
    temperature: { type: 'number' as const, minimum: 0, maximum: 1 },
  },
};
