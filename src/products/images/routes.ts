import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { IMAGES } from './paths';
import { ImageGenerationRequest, MediaUrlResponse } from './request';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';

export const generateImages = createRoute({
  ...at(IMAGES.generate),
  tags: ['media'],
  summary: 'Render images and answer hosted links; the render finishes and is billed even if the client leaves',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(128 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(ImageGenerationRequest) },
  responses: {
    200: {
      ...jsonResponse(MediaUrlResponse, 'Links under this gateway, one per image'),
      headers: z.object({ 'X-Service-Cost': z.string(), 'X-Service-Credits-Remaining': z.string(), 'X-Service-Request-Id': z.string() }),
    },
    ...errors(400, 401, 402, 403, 404, 429, 502, 503),
  },
});

const ImageJob = z
  .object({
    id: z.string(),
    status: z.enum(['queued', 'processing', 'completed', 'failed']),
    urls: z.array(z.url()).optional().openapi({ description: 'Present when completed.' }),
    predicted_usd: z.number().openapi({ description: 'Held at submission.' }),
    actual_usd: z.number().nullable().openapi({ description: 'Charged; null until settled and on failure.' }),
    error: z.string().optional().openapi({ description: "Why it failed, in the provider's words where it gave some; nothing was charged." }),
    error_code: z.string().optional().openapi({ description: 'With `error`: its envelope code (`invalid_request`: the provider refused the request; `provider_error`: it failed or may have rendered without answering; `provider_unavailable`: unreachable through every retry).' }),
  })
  .openapi('ImageJob');

export const submitImageJob = createRoute({
  ...at(IMAGES.submitJob),
  tags: ['media'],
  summary: 'Submit an image render (same body and price as /v1/images/generations); poll GET /v1/images/jobs/{id}',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(128 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(ImageGenerationRequest) },
  responses: {
    202: jsonResponse(z.object({ id: z.string(), status: z.literal('queued'), predicted_usd: z.number() }), 'Accepted; the amount is held'),
    ...errors(400, 401, 402, 403, 404, 429, 503),
  },
});

export const getImageJob = createRoute({
  ...at(IMAGES.getJob),
  tags: ['media'],
  summary: 'An image job; another account’s job is 404',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }) }) },
  responses: { 200: jsonResponse(ImageJob, 'The job'), ...errors(401, 404) },
});
