import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { bearerAuth, errors, jsonResponse } from '../schemas';

const GenerationRecord = z
  .object({
    id: z.string(),
    kind: z.enum(['image', 'video']),
    model: z.string(),
    prompt: z.string(),
    urls: z.array(z.url()),
    created_at: z.iso.datetime(),
  })
  .openapi('GenerationRecord');

export const listGenerations = createRoute({
  method: 'get',
  path: '/v1/generations',
  tags: ['media'],
  summary: "The account's completed generations with still-hosted outputs, newest first; free",
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: {
    query: z.object({
      kind: z.enum(['image', 'video']).optional(),
      limit: z.coerce.number().int().min(1).max(100).default(20),
      cursor: z.string().min(1).max(200).optional().openapi({ description: "The previous page's `next_cursor`." }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ data: z.array(GenerationRecord), next_cursor: z.string().nullable() }), 'A page of generations'),
    ...errors(400, 401),
  },
});
