import { z } from '@hono/zod-openapi';
import { RoutingMembers } from '../../routing-schema';

/**
 * What a client sends to `POST /v1/responses` (OpenAI's Responses API), validated loosely: an
 * OpenAI-served model gets the body intact (unknown members and item types included, D30), so
 * only the members the gateway itself reads are checked here. Input items are checked one by one
 * where a translated model needs them (`to-chat.ts`), so a new OpenAI item type still passes
 * through to OpenAI.
 */

/** One input item: a message (`role` with `content`), a function call or its output, a reasoning item, ... */
export const InputItem = z.looseObject({ type: z.string().optional(), role: z.string().optional() });

/** A tool: `{type: 'function', name, parameters, strict}`, a `namespace` of functions, or a hosted one (`web_search`, ...). */
export const Tool = z.looseObject({ type: z.string().min(1), name: z.string().optional() });

export const ResponsesRequest = z
  .looseObject({
    model: z.string().min(1).openapi({ example: 'openai/gpt-4o-mini' }),
    input: z.union([z.string(), z.array(InputItem)]).optional(),
    instructions: z.string().nullable().optional(),
    stream: z.boolean().optional(),
    store: z.boolean().nullable().optional(),
    previous_response_id: z.string().min(1).max(200).nullable().optional(),
    include: z.array(z.string()).nullable().optional(),
    tools: z.array(Tool).optional(),
    tool_choice: z.unknown().optional(),
    parallel_tool_calls: z.boolean().nullable().optional(),
    text: z.looseObject({ format: z.looseObject({ type: z.string() }).optional(), verbosity: z.string().nullable().optional() }).optional(),
    reasoning: z.looseObject({ effort: z.string().nullable().optional(), summary: z.string().nullable().optional() }).nullable().optional(),
    max_output_tokens: z.int().min(1).nullable().optional(),
    temperature: z.number().min(0).max(2).nullable().optional(),
    top_p: z.number().min(0).max(1).nullable().optional(),
    metadata: z.record(z.string(), z.string()).nullable().optional(),
    ...RoutingMembers,
  })
  .openapi('ResponsesRequest');

export type ResponsesBody = z.output<typeof ResponsesRequest>;
export type InputItemBody = z.output<typeof InputItem>;
export type ToolBody = z.output<typeof Tool>;

/** The parts of a message item a translated model reads. */
export const MessageContentPart = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('input_text'), text: z.string() }),
  z.looseObject({ type: z.literal('output_text'), text: z.string() }),
  z.looseObject({ type: z.literal('refusal'), refusal: z.string() }),
  z.looseObject({ type: z.literal('input_image'), image_url: z.string().min(1).nullable().optional(), file_id: z.string().nullable().optional(), detail: z.string().optional() }),
  z.looseObject({
    type: z.literal('input_file'),
    file_data: z.string().optional(),
    filename: z.string().optional(),
    file_id: z.string().nullable().optional(),
    file_url: z.string().optional(),
  }),
]);

export const MessageItem = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(MessageContentPart)]),
});

export const FunctionCallItem = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  namespace: z.string().optional(),
});

export const FunctionCallOutputItem = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }))]),
});

export const FunctionToolBody = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  parameters: z.record(z.string(), z.unknown()).nullable().optional(),
  strict: z.boolean().nullable().optional(),
});

export const NamespaceToolBody = z.looseObject({ type: z.literal('namespace'), name: z.string().min(1), tools: z.array(Tool) });
