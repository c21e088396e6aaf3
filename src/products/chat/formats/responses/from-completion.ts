import type { ChatCompletion, ResponseContext, ToolCall, Usage } from '../../../../providers/chat/types';
import { cacheWrites } from '../../../../providers/chat/usage';
import type { ResponsesBody } from './schema';
import { NAMESPACE_SEPARATOR } from './to-chat';

/**
 * OpenAI's Response object (https://platform.openai.com/docs/api-reference/responses/object) for
 * a translated answer: the output items, the request's settings echoed, and the billed usage in
 * the Responses names (D31).
 */

type Json = Record<string, unknown>;

export interface ResponsesUsageWire {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number; cache_write_tokens?: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

/** `input_tokens` counts every prompt token, cached or not (as OpenAI's does); the details say how many were cache reads and writes. */
export function responsesUsage(usage: Usage): ResponsesUsageWire {
  const writes = cacheWrites(usage);
  const input = usage.inputTokens + usage.cacheReadTokens + writes;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cacheReadTokens, ...(writes > 0 && { cache_write_tokens: writes }) },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + usage.outputTokens,
  };
}

/** The response id of a translated answer: the request's own (`resp_` + the request id's tail). */
export const responseIdOf = (context: ResponseContext) => `resp_${context.requestId.replace(/^req_/, '')}`;
const tail = (context: ResponseContext) => context.requestId.replace(/^req_/, '');
export const messageIdOf = (context: ResponseContext) => `msg_${tail(context)}`;
export const callItemIdOf = (context: ResponseContext, index: number) => `fc_${tail(context)}_${index}`;

/** A call's name as the client offered it: a `namespace` function comes back as its two halves. */
export function callName(name: string, namespaces: ReadonlySet<string>): { name: string; namespace?: string } {
  const at = name.indexOf(NAMESPACE_SEPARATOR);
  if (at > 0 && namespaces.has(name.slice(0, at))) return { namespace: name.slice(0, at), name: name.slice(at + NAMESPACE_SEPARATOR.length) };
  return { name };
}

export const namespacesOf = (body: ResponsesBody) => new Set((body.tools ?? []).filter((tool) => tool.type === 'namespace' && tool.name).map((tool) => tool.name!));

export function messageItem(context: ResponseContext, text: string, status: 'in_progress' | 'completed', refusal = false): Json {
  const part = refusal ? { type: 'refusal', refusal: text } : { type: 'output_text', text, annotations: [], logprobs: [] };
  return { id: messageIdOf(context), type: 'message', status, role: 'assistant', content: status === 'in_progress' ? [] : [part] };
}

export function functionCallItem(id: string, call: ToolCall, status: 'in_progress' | 'completed', namespaces: ReadonlySet<string>): Json {
  return { id, type: 'function_call', status, call_id: call.id, ...callName(call.function.name, namespaces), arguments: call.function.arguments };
}

/** Why an answer stopped short, in Responses terms; null when it is complete. */
export function incompleteReason(finish: string | null | undefined): { reason: string } | null {
  if (finish === 'length') return { reason: 'max_output_tokens' };
  if (finish === 'content_filter') return { reason: 'content_filter' };
  return null;
}

/** The Response object: the request's settings, then what came of it. */
export function responseObject(
  body: ResponsesBody,
  context: ResponseContext,
  state: { status: 'in_progress' | 'completed' | 'incomplete' | 'failed'; output: Json[]; usage?: Usage; incomplete?: { reason: string } | null },
): Json {
  return {
    id: responseIdOf(context),
    object: 'response',
    created_at: context.created,
    status: state.status,
    background: false,
    error: null,
    incomplete_details: state.incomplete ?? null,
    instructions: body.instructions ?? null,
    max_output_tokens: body.max_output_tokens ?? null,
    max_tool_calls: null,
    model: context.model,
    output: state.output,
    parallel_tool_calls: body.parallel_tool_calls ?? true,
    previous_response_id: body.previous_response_id ?? null,
    reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
    store: body.store !== false,
    temperature: body.temperature ?? 1,
    text: { format: body.text?.format ?? { type: 'text' }, verbosity: body.text?.verbosity ?? 'medium' },
    tool_choice: body.tool_choice ?? 'auto',
    tools: body.tools ?? [],
    top_p: body.top_p ?? 1,
    truncation: 'disabled',
    usage: state.usage ? responsesUsage(state.usage) : null,
    user: null,
    metadata: body.metadata ?? {},
    ...(state.status !== 'in_progress' && { completed_at: Math.floor(Date.now() / 1000) }),
  };
}

/** A whole translated answer as a Response. */
export function fromCompletion(body: ResponsesBody, completion: ChatCompletion, usage: Usage, context: ResponseContext): Json {
  const choice = completion.choices[0];
  const namespaces = namespacesOf(body);
  const output: Json[] = [];
  const message = choice?.message;
  if (message?.refusal) output.push(messageItem(context, message.refusal, 'completed', true));
  else if (message?.content) output.push(messageItem(context, message.content, 'completed'));
  (message?.tool_calls ?? []).forEach((call, index) => output.push(functionCallItem(callItemIdOf(context, index), call, 'completed', namespaces)));
  const incomplete = incompleteReason(choice?.finish_reason);
  return responseObject(body, context, { status: incomplete ? 'incomplete' : 'completed', output, usage, incomplete });
}
