import { createRoute, z } from '@hono/zod-openapi';
import { UPLOAD_TYPE_NAMES } from '../../media/uploads';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../schemas';

export const createUpload = createRoute({
  method: 'post',
  path: '/v1/uploads',
  tags: ['media'],
  summary: 'An upload URL for a file of exactly content_length bytes (a presigned R2 PUT where configured); free, but needs a positive balance',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(4 * KiB), parseJsonBody()] as const,
  request: {
    body: jsonBody(
      z.object({
        content_type: z.enum(UPLOAD_TYPE_NAMES),
        content_length: z.int().min(1).openapi({ description: 'The exact size in bytes; images up to 20 MB, video 100 MB, audio 25 MB.' }),
      }),
    ),
  },
  responses: {
    200: jsonResponse(
      z.object({
        upload_url: z.url(),
        upload_headers: z.record(z.string(), z.string()).openapi({ description: 'Headers the PUT must carry besides Content-Length: Content-Type, and If-None-Match: * for a presigned R2 PUT (R2 then refuses a second PUT with 412)' }),
        public_url: z.url(),
        key: z.string(),
        expires_in: z.int(),
        note: z.string(),
      }),
      'PUT the bytes to upload_url with upload_headers and the declared Content-Length within expires_in seconds',
    ),
    ...errors(400, 401, 402, 429),
  },
});

export const listUploads = createRoute({
  method: 'get',
  path: '/v1/uploads',
  tags: ['media'],
  summary: 'Uploaded files still hosted, newest first (D9)',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      cursor: z.string().min(1).max(300).optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({
        data: z.array(z.object({ url: z.url(), key: z.string(), bytes: z.int(), content_type: z.string(), uploaded_at: z.iso.datetime() })),
        next_cursor: z.string().nullable(),
      }),
      'A page of uploads',
    ),
    ...errors(400, 401),
  },
});
