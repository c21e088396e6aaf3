import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { VIDEOS } from './paths';
import { VideoGenerationRequest } from './request';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';

const VideoJob = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    url: z.url().nullable().openapi({ description: 'The video, when completed; serves ranges.' }),
    error: z.string().optional().openapi({ description: "Why it failed, in the provider's words where it gave some; nothing was charged." }),
    error_code: z.string().optional().openapi({ description: 'With `error`: its envelope code (`invalid_request`, `provider_error`, `provider_unavailable`).' }),
    predicted_usd: z.number(),
    actual_usd: z.number().nullable(),
  })
  .openapi('VideoJob');

export const submitVideo = createRoute({
  ...at(VIDEOS.submit),
  tags: ['media'],
  summary: 'Submit a video render, billed per second of the requested duration; poll GET /v1/videos/generations/{id}',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(128 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(VideoGenerationRequest) },
  responses: {
    202: jsonResponse(z.object({ id: z.string(), status: z.literal('queued'), predicted_usd: z.number() }), 'Accepted; the price is held'),
    ...errors(400, 401, 402, 403, 404, 429, 502, 503),
  },
});

export const getVideo = createRoute({
  ...at(VIDEOS.get),
  tags: ['media'],
  summary: 'A video job; another account’s job is 404. Poll every few seconds',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }) }) },
  responses: { 200: jsonResponse(VideoJob, 'The job'), ...errors(401, 404, 429, 502) },
});
