/**
 * One embeddings adapter for every upstream that speaks OpenAI's `POST /embeddings`
 * (https://platform.openai.com/docs/api-reference/embeddings/create): OpenAI itself, Mistral and
 * Together. They differ in what one request takes, whether token arrays are input, and whether
 * they have `dimensions` and base64; each provider's folder states its own.
 */
import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import type { EmbeddingsAdapter } from '../adapters';

export interface OpenAIShapedEmbeddings {
  limits: EmbeddingsAdapter['limits'];
  takesTokenArrays: boolean;
  /** The upstream's member for the vector size (OpenAI: `dimensions`); none where the size is fixed (the plan refuses any other). */
  dimensionsMember?: string;
  /** Whether the upstream answers `encoding_format: "base64"` (else it is always asked for floats). */
  base64: boolean;
}

const Answer = z.object({
  data: z.array(z.object({ index: z.int().min(0), embedding: z.union([z.array(z.number()), z.string()]) })),
  usage: z.object({ prompt_tokens: z.number().min(0) }).partial().nullish(),
});

export function openaiShapedEmbeddings(spec: OpenAIShapedEmbeddings): EmbeddingsAdapter {
  return {
    limits: spec.limits,
    takesTokenArrays: spec.takesTokenArrays,
    request: ({ inputs, upstreamId, dimensions, base64 }, { base, apiKey }) => ({
      url: `${base}/embeddings`,
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: upstreamId,
        input: inputs.kind === 'text' ? inputs.texts : inputs.arrays,
        ...(dimensions !== undefined && spec.dimensionsMember ? { [spec.dimensionsMember]: dimensions } : {}),
        encoding_format: base64 && spec.base64 ? 'base64' : 'float',
      }),
    }),
    parse: (body, count) => {
      const answer = Answer.safeParse(body);
      if (!answer.success) throw new GatewayError('provider_error', 'The provider answered embeddings in an unexpected shape.');
      const vectors = new Array<number[] | string>(count);
      for (const item of answer.data.data) if (item.index < count) vectors[item.index] = item.embedding;
      if (answer.data.data.length !== count || vectors.some((vector) => vector === undefined)) {
        throw new GatewayError('provider_error', `The provider answered ${answer.data.data.length} embeddings for ${count} inputs.`);
      }
      const tokens = answer.data.usage?.prompt_tokens;
      return { vectors, promptTokens: tokens === undefined ? null : Math.ceil(tokens) };
    },
  };
}
