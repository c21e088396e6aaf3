import { z } from '@hono/zod-openapi';
import { RoutingMembers } from './routing-schema';

/**
 * What a client sends to `POST /v1/chat/completions` (OpenAI's chat-completions format), as zod
 * schemas: the route validates with them and the gateway's request types are inferred from them
 * (`src/providers/chat/types.ts`), so the compiler sees every optional member a client may omit.
 */

export const TextPart = z.object({ type: z.literal('text'), text: z.string() });
export const ImagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({
    url: z.string().min(1).openapi({ description: 'https URL or base64 data URI' }),
    detail: z.enum(['low', 'high', 'auto']).optional(),
  }),
});
export const FilePart = z.object({
  type: z.literal('file'),
  file: z.object({
    filename: z.string().min(1).max(256),
    file_data: z.string().startsWith('data:application/pdf;base64,', 'must be a base64 application/pdf data URI'),
  }),
});
export const ContentPart = z.discriminatedUnion('type', [TextPart, ImagePart, FilePart]);

export const ToolCall = z.object({
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

export const FunctionTool = z.looseObject({
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
    ...RoutingMembers,
  })
  .openapi('ChatCompletionRequest');
