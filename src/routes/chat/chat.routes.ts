import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody } from '../schemas';

const TextPart = z.object({ type: z.literal('text'), text: z.string() });
const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    url: z.string().min(1).openapi({ description: 'https URL or base64 data URI' }),
    detail: z.enum(['low', 'high', 'auto']).optional(),
  }),
});
const FilePart = z.object({
  type: z.literal('file'),
  file: z.object({
    filename: z.string().min(1).max(256),
    file_data: z.string().startsWith('data:application/pdf;base64,', 'must be a base64 application/pdf data URI'),
  }),
});
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart, FilePart]);

const ToolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string() }),
});

export const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
  name: z.string().optional(),
  tool_calls: z.array(ToolCall).optional(),
  tool_call_id: z.string().optional(),
});

const FunctionTool = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
});

/** Unknown members are allowed and reach group-1 upstreams unchanged (spec). */
export const ChatCompletionRequest = z
  .looseObject({
    model: z.string().min(1).openapi({ example: 'openai/gpt-4o-mini' }),
    messages: z.array(ChatMessage).min(1),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.int().min(1).optional(),
    max_completion_tokens: z.int().min(1).optional(),
    n: z.int().min(1).max(8).optional(),
    top_p: z.number().min(0).max(1).optional(),
    frequency_penalty: z.number().min(-2).max(2).optional(),
    presence_penalty: z.number().min(-2).max(2).optional(),
    stop: z.union([z.string(), z.array(z.string()).max(4)]).optional(),
    tools: z.array(FunctionTool).optional(),
    tool_choice: z.unknown().optional(),
  })
  .openapi('ChatCompletionRequest');

export const chatCompletions = createRoute({
  method: 'post',
  path: '/v1/chat/completions',
  tags: ['chat'],
  summary: 'Chat completion (OpenAI chat-completions format), streamed or not',
  security: bearerAuth,
  // 4 PDFs of 2 MB (base64) plus images and text.
  middleware: [apiKey(), limitBody(32 * MiB), parseJsonBody()] as const,
  request: { body: jsonBody(ChatCompletionRequest) },
  responses: {
    200: {
      description: 'A chat completion, or with `stream: true` an SSE stream of chunks ending with a usage frame and `data: [DONE]`',
      headers: z.object({
        'X-Service-Cost': z.string().openapi({ description: 'USD charged (non-streamed answers)' }),
        'X-Service-Credits-Remaining': z.string(),
        'X-Service-Request-Id': z.string(),
        'x-service-unsupported-params': z.string().optional(),
      }),
      content: {
        'application/json': { schema: z.looseObject({ id: z.string(), object: z.literal('chat.completion'), choices: z.array(z.unknown()) }) },
        'text/event-stream': { schema: z.string() },
      },
    },
    ...errors(400, 401, 402, 403, 404, 413, 429, 502, 503),
  },
});
