import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import type { EmbeddingsAdapter } from '../adapters';

const Answer = z.object({ embeddings: z.array(z.object({ values: z.array(z.number()) })) });

/**
 * Gemini's `models/{model}:batchEmbedContents` (https://ai.google.dev/api/embeddings): one request
 * per text (`content.parts[].text`, `outputDimensionality` for the size), at most 100 per batch;
 * text only. The answer is `embeddings[].values` in request order and reports no tokens, so the
 * charge is the gateway's estimate (products/embeddings/plan.ts).
 */
export const geminiEmbeddings: EmbeddingsAdapter = {
  limits: { maxInputs: 100, maxTokens: 100 * 2048 },
  takesTokenArrays: false,
  request: ({ inputs, upstreamId, dimensions }, { base, apiKey }) => {
    if (inputs.kind !== 'text') throw new GatewayError('invalid_request', 'Gemini embeds text only; send `input` as strings.', { param: 'input' });
    const model = `models/${upstreamId}`;
    return {
      url: `${base}/${model}:batchEmbedContents`,
      headers: { 'x-goog-api-key': apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        requests: inputs.texts.map((text) => ({ model, content: { parts: [{ text }] }, ...(dimensions !== undefined && { outputDimensionality: dimensions }) })),
      }),
    };
  },
  parse: (body, count) => {
    const answer = Answer.safeParse(body);
    if (!answer.success) throw new GatewayError('provider_error', 'Gemini answered embeddings in an unexpected shape.');
    if (answer.data.embeddings.length !== count) throw new GatewayError('provider_error', `Gemini answered ${answer.data.embeddings.length} embeddings for ${count} inputs.`);
    return { vectors: answer.data.embeddings.map((embedding) => embedding.values), promptTokens: null };
  },
};
