import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { EMBEDDINGS } from './paths';
import { EmbeddingsRequest, EmbeddingsResponse } from './request';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';

export const embeddings = createRoute({
  ...at(EMBEDDINGS.create),
  tags: ['embeddings'],
  summary: 'Embed text or token arrays (OpenAI embeddings format), billed per input token',
  security: bearerAuth,
  // 2,048 inputs of about 4 KB each.
  middleware: [apiKey(), x402Payment(), limitBody(8 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(EmbeddingsRequest) },
  responses: {
    200: {
      ...jsonResponse(EmbeddingsResponse, 'One vector per input, in input order'),
      headers: z.object({ 'X-Service-Cost': z.string(), 'X-Service-Credits-Remaining': z.string(), 'X-Service-Request-Id': z.string() }),
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});
