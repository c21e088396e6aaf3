import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { bearerAuth, errors, jsonResponse, UsdString } from '../schemas';

const RequestIdParam = z.object({
  request_id: z.string().min(1).max(100).openapi({ param: { name: 'request_id', in: 'path' }, description: 'The X-Service-Request-Id of a billed request.' }),
});

export const RequestRecord = z
  .object({
    id: z.string(),
    path: z.string().openapi({ description: 'The billed route, e.g. /v1/chat/completions.' }),
    model: z.string().nullable().openapi({ description: 'Chat: the model that served (a fallback from `models` when one did).' }),
    provider: z.string().nullable().openapi({ description: 'Chat: the provider that served.' }),
    status: z.enum(['succeeded', 'failed']).openapi({ description: 'failed: the hold was released and nothing was charged.' }),
    created_at: z.iso.datetime(),
    duration_ms: z.int(),
    streamed: z.boolean(),
    cost_usd: UsdString,
    usage: z.record(z.string(), z.number()).openapi({
      description: "The route's units: prompt_tokens/completion_tokens with cached_tokens, cache_write_tokens (of which cache_write_1h_tokens) and reasoning_tokens (chat), images, seconds (video), characters (speech), pages (scrape, crawl), records or pages (extract).",
    }),
    attempts: z
      .array(z.object({ provider: z.string(), model: z.string(), status: z.int().nullable().openapi({ description: "The upstream's HTTP status; null when none came (timeout, refused)" }), ms: z.int() }))
      .optional()
      .openapi({ description: 'Chat, when more than one upstream call was made (D34): each call in order, the one that served last; only the serving one is charged.' }),
  })
  .openapi('RequestRecord');

export const getRequest = createRoute({
  method: 'get',
  path: '/v1/requests/{request_id}',
  tags: ['agent'],
  summary: 'A billed request of this account by its request id: cost, units, timing (D26)',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: RequestIdParam },
  responses: { 200: jsonResponse(RequestRecord, 'The request'), ...errors(401, 403, 404, 429, 503) },
});
