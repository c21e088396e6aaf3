import { z } from '@hono/zod-openapi';
import { RoutingMembers } from '../../routing-schema';

/**
 * What a client sends to `POST /v1/messages` (Anthropic's Messages API), as zod schemas. Loose on
 * purpose: a native upstream gets every member as it came (unknown ones and new block types
 * included), so only what the gateway itself reads is checked; the translation checks the rest.
 */

const CacheControl = z.looseObject({ type: z.string() }).optional();

/** One content block: `text`, `image`, `document`, `tool_use`, `tool_result`, `thinking`, or a type added later. */
export const ContentBlock = z
  .looseObject({
    type: z.string().min(1),
    text: z.string().optional(),
    cache_control: CacheControl,
  })
  .openapi('MessagesContentBlock', { description: 'A content block (text, image, document, tool_use, tool_result, thinking, ...)' });

/** `system` turns sit among the others (the Messages API's mid-conversation instructions; Claude Code sends them). */
export const MessageParam = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(ContentBlock)]),
});

export const SystemBlock = z.looseObject({ type: z.literal('text'), text: z.string(), cache_control: CacheControl });

/** A custom tool (`input_schema`) or an Anthropic-defined one (`type`, e.g. `bash_20250124`). */
export const ToolParam = z.looseObject({
  name: z.string().min(1),
  type: z.string().optional(),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  cache_control: CacheControl,
});

export const ToolChoice = z.looseObject({
  type: z.enum(['auto', 'any', 'tool', 'none']),
  name: z.string().optional(),
  disable_parallel_tool_use: z.boolean().optional(),
});

export const Thinking = z.looseObject({
  type: z.enum(['enabled', 'disabled', 'adaptive']),
  budget_tokens: z.int().min(1).optional(),
});

export const MessagesRequest = z
  .looseObject({
    model: z.string().min(1).openapi({ example: 'anthropic/claude-haiku-4-5' }),
    max_tokens: z.int().min(1),
    messages: z.array(MessageParam).min(1),
    system: z.union([z.string(), z.array(SystemBlock)]).optional(),
    stream: z.boolean().optional(),
    temperature: z.number().min(0).max(1).optional(),
    top_p: z.number().min(0).max(1).optional(),
    top_k: z.int().min(0).optional(),
    stop_sequences: z.array(z.string()).optional(),
    tools: z.array(ToolParam).optional(),
    tool_choice: ToolChoice.optional(),
    thinking: Thinking.optional(),
    metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
    ...RoutingMembers,
  })
  .openapi('MessagesRequest');

export type MessagesBody = z.output<typeof MessagesRequest>;
export type MessagesBlock = z.output<typeof ContentBlock>;
export type MessagesMessage = z.output<typeof MessageParam>;
