import { createRoute, z } from '@hono/zod-openapi';
import { jsonResponse } from '../schemas';

export const ModelEntry = z
  .object({
    id: z.string().openapi({ example: 'openai/gpt-4o' }),
    object: z.literal('model'),
    created: z.int(),
    owned_by: z.string(),
    type: z.enum(['chat', 'image', 'video', 'audio', 'embedding', 'transcription']),
    display_name: z.string(),
    context_length: z.int().nullable(),
    max_output_tokens: z.int().nullable(),
    capabilities: z.object({
      streaming: z.boolean(),
      images: z.boolean().openapi({ description: 'Older name of `vision`, still sent.' }),
      vision: z.boolean(),
      tools: z.boolean(),
      pdf: z.boolean(),
      image_edit: z.boolean(),
      max_reference_images: z.int(),
    }),
    pricing: z.object({
      input: z.number().openapi({ description: 'USD per unit' }),
      output: z.number(),
      cache_read: z.number().optional().openapi({ description: 'USD per prompt-cache read token' }),
      cache_write: z.number().optional().openapi({ description: 'USD per prompt-cache write token (Anthropic: 5-minute writes)' }),
      cache_write_1h: z.number().optional().openapi({ description: 'USD per 1-hour prompt-cache write token' }),
      unit: z.enum(['per_token', 'per_image', 'per_second', 'per_1k_chars']),
      display: z.string(),
      tiers: z.record(z.string(), z.number()).optional().openapi({ description: 'Price per quality or resolution tier' }),
    }),
    demo: z.boolean().optional().openapi({ description: 'true: a demo built into the gateway (`gateway/echo`), free and rate-limited, not a real model' }),
    description: z.string().optional(),
    qualities: z.array(z.string()).optional(),
    video: z
      .object({
        durations: z.array(z.int()),
        default_duration: z.int(),
        resolutions: z.array(z.string()),
        audio: z.boolean(),
        image_input: z.boolean(),
        inputs: z
          .object({
            image_url: z.boolean(),
            end_image_url: z.boolean(),
            max_reference_images: z.int(),
            video_url: z.enum(['no', 'optional', 'required']),
            audio_url: z.enum(['no', 'optional', 'required']),
            seed: z.boolean(),
            aspect_ratios: z.array(z.string()),
          })
          .openapi({ description: 'The request fields the model takes at the route serving it; any other is refused with 400 naming it' }),
      })
      .optional(),
    default_voice: z.string().optional(),
    endpoints: z
      .array(
        z.object({
          provider: z.string().openapi({ description: 'The name `provider.order`, `only` and `ignore` take (D34)' }),
          pricing: z.object({ input: z.number(), output: z.number(), cache_read: z.number().optional(), cache_write: z.number().optional() }).openapi({ description: 'USD per token at this route' }),
          context_length: z.int(),
          parameters: z.array(z.string()).openapi({ description: 'The request members this route applies; others are dropped and listed in x-service-unsupported-params' }),
          status: z.enum(['ok', 'degraded', 'down']).openapi({ description: 'Recent health of the route, as the answering isolate sees it (seconds stale at most): `down` while its breaker is open (skipped), `degraded` after recent failures or while half-open (one probe decides), else `ok`' }),
        }),
      )
      .optional()
      .openapi({ description: 'Chat models: each configured route, in the order requests try them by default' }),
    embedding: z
      .object({ default_dimensions: z.int(), min_dimensions: z.int(), max_dimensions: z.int(), max_input_tokens: z.int() })
      .optional()
      .openapi({ description: 'Embedding models: the vector size without `dimensions`, the sizes `dimensions` may ask, and the tokens one input may have' }),
    transcription: z
      .object({
        max_file_bytes: z.int(),
        max_seconds: z.int().nullable(),
        response_formats: z.array(z.enum(['json', 'text', 'verbose_json'])),
        minimum_billed_seconds: z.int(),
      })
      .optional()
      .openapi({ description: 'Transcription models: the largest file and longest audio taken, the formats answered, the least billed per request' }),
  })
  .openapi('Model');

export const listModels = createRoute({
  method: 'get',
  path: '/v1/models',
  tags: ['models'],
  summary: 'The live catalog: every model a configured provider serves, with its price',
  responses: { 200: jsonResponse(z.object({ object: z.literal('list'), data: z.array(ModelEntry) }), 'The models') },
});
