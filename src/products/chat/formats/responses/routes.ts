import { createRoute, z } from '@hono/zod-openapi';
import { ChatAnswerHeaders } from '../../routing-schema';
import { apiKey } from '../../../../middleware/api-key';
import { limitBody, MiB } from '../../../../middleware/body-limit';
import { parseJsonBody } from '../../../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../../../routes/schemas';
import { x402Payment } from '../../../../x402/middleware';
import { at } from '../../../contract';
import { CHAT } from '../../paths';
import { ResponsesRequest } from './schema';

export const ResponseObject = z.looseObject({ id: z.string(), object: z.literal('response'), status: z.string(), output: z.array(z.unknown()) }).openapi('Response');
const responseId = z.object({ id: z.string().min(1).max(200).openapi({ param: { name: 'id', in: 'path' }, example: 'resp_abc123' }) });

export const createResponse = createRoute({
  ...at(CHAT.responses),
  tags: ['chat'],
  summary: 'A model response (OpenAI Responses format) on any chat model, streamed or not',
  security: bearerAuth,
  // As chat completions: 4 PDFs of 2 MB (base64) plus images and text.
  middleware: [apiKey(), x402Payment(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(ResponsesRequest) },
  responses: {
    200: {
      description: 'A Response, or with `stream: true` an SSE stream of `response.*` events ending with `response.completed` (with `x_service` beside `response`)',
      headers: ChatAnswerHeaders,
      content: { 'application/json': { schema: ResponseObject }, 'text/event-stream': { schema: z.string() } },
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});

export const getResponse = createRoute({
  ...at(CHAT.getResponse),
  tags: ['chat'],
  summary: 'A stored response (kept 30 days); another account’s is 404',
  security: bearerAuth,
  middleware: [apiKey()] as const,
  request: { params: responseId },
  responses: { 200: jsonResponse(ResponseObject, 'The Response as it was answered'), ...errors(401, 404, 429) },
});

export const deleteResponse = createRoute({
  ...at(CHAT.deleteResponse),
  tags: ['chat'],
  summary: 'Deletes a stored response',
  security: bearerAuth,
  middleware: [apiKey()] as const,
  request: { params: responseId },
  responses: { 200: jsonResponse(z.object({ id: z.string(), object: z.literal('response'), deleted: z.literal(true) }), 'Deleted'), ...errors(401, 404, 429) },
});

export const listInputItems = createRoute({
  ...at(CHAT.inputItems),
  tags: ['chat'],
  summary: 'The input items a stored response saw (the chained history included)',
  security: bearerAuth,
  middleware: [apiKey()] as const,
  request: {
    params: responseId,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20),
      order: z.enum(['asc', 'desc']).default('desc'),
      after: z.string().min(1).max(200).optional(),
      include: z.union([z.string(), z.array(z.string())]).optional(),
    }),
  },
  responses: {
    200: jsonResponse(
      z.object({ object: z.literal('list'), data: z.array(z.looseObject({ id: z.string() })), first_id: z.string().nullable(), last_id: z.string().nullable(), has_more: z.boolean() }),
      'A page of input items',
    ),
    ...errors(400, 401, 404, 429),
  },
});
