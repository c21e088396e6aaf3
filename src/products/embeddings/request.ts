import { z } from '@hono/zod-openapi';

/** Inputs one request takes (OpenAI's limit): a larger batch is refused naming `input`. */
export const MAX_INPUTS = 2048;

const Text = z.string().min(1, 'an input may not be empty');
const TokenArray = z.array(z.int().min(0)).min(1, 'a token array may not be empty');

/** `POST /v1/embeddings` in OpenAI's shape (https://platform.openai.com/docs/api-reference/embeddings/create). */
export const EmbeddingsRequest = z
  .object({
    model: z.string().min(1).openapi({ example: 'openai/text-embedding-3-small' }),
    input: z
      .union([Text, z.array(Text).min(1).max(MAX_INPUTS), TokenArray, z.array(TokenArray).min(1).max(MAX_INPUTS)])
      .openapi({ description: `A string, up to ${MAX_INPUTS} strings, a token array, or up to ${MAX_INPUTS} token arrays (models that take tokens: OpenAI's).` }),
    dimensions: z.int().min(1).optional().openapi({ description: "The vector's length, within the model's range (`GET /v1/models`: `embedding`)." }),
    encoding_format: z.enum(['float', 'base64']).default('float').openapi({ description: '`base64`: each vector as the base64 of its little-endian float32s.' }),
    user: z.string().max(256).optional().openapi({ description: "Accepted for OpenAI's clients; not sent upstream." }),
  })
  .openapi('EmbeddingsRequest');

export type EmbeddingsInput = z.output<typeof EmbeddingsRequest>;

export const EmbeddingsResponse = z
  .object({
    object: z.literal('list'),
    data: z.array(z.object({ object: z.literal('embedding'), index: z.int(), embedding: z.union([z.array(z.number()), z.string()]) })),
    model: z.string(),
    usage: z.object({ prompt_tokens: z.int(), total_tokens: z.int() }),
  })
  .openapi('EmbeddingsResponse');
