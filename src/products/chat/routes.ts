import { createRoute, z } from '@hono/zod-openapi';
import { ChatAnswerHeaders } from './routing-schema';
import { at } from '../contract';
import { CHAT } from './paths';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { ChatCompletionRequest } from './request-schema';
import { bearerAuth, errors, jsonBody } from '../../routes/schemas';

export const chatCompletions = createRoute({
  ...at(CHAT.completions),
  tags: ['chat'],
  summary: 'Chat completion (OpenAI chat-completions format), streamed or not',
  security: bearerAuth,
  // 4 PDFs of 2 MB (base64) plus images and text.
  middleware: [apiKey(), x402Payment(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(ChatCompletionRequest) },
  responses: {
    200: {
      description: 'A chat completion, or with `stream: true` an SSE stream of chunks ending with a usage frame and `data: [DONE]`',
      headers: ChatAnswerHeaders,
      content: {
        'application/json': { schema: z.looseObject({ id: z.string(), object: z.literal('chat.completion'), choices: z.array(z.unknown()) }) },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});
