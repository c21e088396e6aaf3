import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { WEB } from './paths';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';

export const WebUrl = z
  .string()
  .min(1)
  .max(2048)
  .refine((value) => /^https?:\/\//i.test(value), 'must be an absolute http(s) URL')
  .openapi({ example: 'https://example.com/article' });

export const PageFormat = z.enum(['markdown', 'html', 'text']);

export const ScrapeRequest = z
  .object({
    url: WebUrl,
    format: PageFormat.default('markdown'),
    stealth: z.union([z.boolean(), z.literal('auto')]).default(false),
    timeout_ms: z.int().min(1000).max(60_000).default(30_000),
  })
  .openapi('ScrapeRequest');

export const ScrapeResponse = z
  .object({
    url: z.string(),
    final_url: z.string(),
    status: z.int(),
    format: PageFormat,
    content: z.string(),
    metadata: z
      .object({
        title: z.string().optional(),
        description: z.string().optional(),
        language: z.string().optional(),
        canonical_url: z.string().optional(),
        open_graph: z.record(z.string(), z.string()),
        json_ld: z.array(z.unknown()),
      })
      .optional(),
    tier: z.enum(['standard', 'stealth']),
    cost: z.number().openapi({ description: 'USD charged' }),
  })
  .openapi('ScrapeResponse');

export const scrape = createRoute({
  ...at(WEB.scrape),
  tags: ['web'],
  summary: 'One page as markdown, html or text; $0.002 standard, $0.008 stealth; failures are free',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(ScrapeRequest) },
  responses: { 200: jsonResponse(ScrapeResponse, 'The page'), ...errors(400, 401, 402, 403, 429, 502, 503), 422: jsonResponse(z.object({ error: z.unknown() }), 'No extractable content') },
});
