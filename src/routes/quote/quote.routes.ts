import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { BILLED_PATHS, type BilledPath } from '../../products';
import { bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';

export const QuoteRequest = z
  .object({
    path: z.enum(BILLED_PATHS as [BilledPath, ...BilledPath[]]).openapi({ description: 'The billed route to price.' }),
    body: z.unknown().openapi({ description: "That route's request body, validated as the route validates it." }),
  })
  .openapi('QuoteRequest');

export const Quote = z
  .object({
    object: z.literal('quote'),
    path: z.string(),
    model: z.string().nullable(),
    worst_case_usd: UsdString.openapi({ description: 'What the route would hold: the most the request can cost.' }),
    estimated_usd: UsdString.openapi({ description: 'What it is likely to cost; the worst case where the price is known up front.' }),
    available_usd: UsdString.openapi({ description: "What this key may spend now: the balance less open holds, or the key's limit headroom when lower." }),
    affordable: z.boolean().openapi({ description: 'Whether the route would serve it now (for chat without max_tokens, the cap is lowered to what is available).' }),
    max_tokens_affordable: z.int().optional().openapi({ description: 'Chat: the largest max_tokens the available amount covers, up to the model cap.' }),
  })
  .openapi('Quote');

export const quote = createRoute({
  method: 'post',
  path: '/v1/quote',
  tags: ['agent'],
  summary: 'What a billed request would hold and cost, with no side effect',
  security: bearerAuth,
  // As large as the largest billed body (chat's).
  middleware: [apiKey(), x402Payment(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(QuoteRequest) },
  responses: { 200: jsonResponse(Quote, 'The quote'), ...errors(400, 401, 403, 404, 413, 429, 503) },
});
