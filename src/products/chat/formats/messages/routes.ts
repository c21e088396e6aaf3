import { createRoute, z } from '@hono/zod-openapi';
import { ChatAnswerHeaders } from '../../routing-schema';
import { at } from '../../../contract';
import { CHAT } from '../../paths';
import { apiKey } from '../../../../middleware/api-key';
import { x402Payment } from '../../../../x402/middleware';
import { limitBody, MiB } from '../../../../middleware/body-limit';
import { parseJsonBody } from '../../../../middleware/json-body';
import { bearerAuth, errors, jsonBody } from '../../../../routes/schemas';
import { anthropicErrorType } from './error-type';
import { MessagesRequest } from './schema';

/**
 * Anthropic's `anthropic-version` and `anthropic-beta` headers, the `x-api-key` key and the
 * `?beta=true` query are read from the raw request (the native request passes them on): declared
 * as validated `headers`/`query`, they cost about 80 µs of CPU a request (bench formats section).
 */
const PASSED_ON = "Anthropic's `anthropic-version` (default 2023-06-01) and `anthropic-beta` headers and the `?beta=true` query are taken and passed on to Anthropic's models; the key may come as `x-api-key`.";

export const messages = createRoute({
  ...at(CHAT.messages),
  tags: ['chat'],
  summary: 'Anthropic Messages API: every chat model, streamed or not',
  description:
    "Anthropic's models get the body as sent (the model id replaced; `anthropic-beta` and `?beta=true` passed on); every other model is translated to and from its provider's format. A streamed answer's last `message_delta` carries `x_service` (request id, cost, balance). " + PASSED_ON,
  security: bearerAuth,
  // As chat: PDFs and images inline, plus text.
  middleware: [anthropicErrorType(), apiKey(), x402Payment(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(MessagesRequest) },
  responses: {
    200: {
      description: 'A Message, or with `stream: true` its SSE events (message_start, content_block_*, message_delta, message_stop)',
      headers: ChatAnswerHeaders,
      content: {
        'application/json': { schema: z.looseObject({ id: z.string(), type: z.literal('message'), content: z.array(z.unknown()) }) },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});

export const countTokens = createRoute({
  ...at(CHAT.countTokens),
  tags: ['chat'],
  summary: "Count a Messages body's input tokens (free)",
  description:
    "Anthropic's models: Anthropic's own count (its `/v1/messages/count_tokens`, free). Other models: the gateway's estimate (about 4 characters per token, fixed allowances for images and PDFs). Never holds or charges. " + PASSED_ON,
  security: bearerAuth,
  middleware: [anthropicErrorType(), apiKey(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(MessagesRequest.omit({ max_tokens: true }).extend({ max_tokens: z.int().min(1).optional() })) },
  responses: {
    200: { description: 'The count', content: { 'application/json': { schema: z.looseObject({ input_tokens: z.int() }) } } },
    ...errors(400, 401, 403, 404, 413, 502, 503),
  },
});
