/** A translated answer as an Anthropic Message, and the shared mappings of the translated stream. */
import type { ChatCompletion, FinishReason, ResponseContext, Usage } from '../../../../providers/chat/types';

/** Anthropic's `usage`, from the billed counts: `input_tokens` without cache reads and writes, writes split by lifetime (D31). */
export function messagesUsage(usage: Usage) {
  const oneHour = usage.cacheWrite1hTokens ?? 0;
  return {
    input_tokens: usage.inputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens + oneHour,
    cache_read_input_tokens: usage.cacheReadTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWriteTokens, ephemeral_1h_input_tokens: oneHour },
    output_tokens: usage.outputTokens,
  };
}

/** A chat `finish_reason` as Anthropic's `stop_reason` (which stop sequence matched, chat does not say). */
export function stopReason(reason: FinishReason | null): string {
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** `msg_` ids as Anthropic's are; the upstream's own id is kept inside it. */
export function messageId(id: string | undefined, context: ResponseContext): string {
  return id ? (id.startsWith('msg_') ? id : `msg_${id}`) : `msg_${context.requestId}`;
}

/** Tool arguments as the object Anthropic's `input` is; arguments that are not a JSON object are kept under `arguments`. */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const input: unknown = JSON.parse(args || '{}');
    if (typeof input === 'object' && input !== null && !Array.isArray(input)) return input as Record<string, unknown>;
  } catch {
    // fall through
  }
  return { arguments: args };
}

export function messageFromCompletion(completion: ChatCompletion, usage: Usage, context: ResponseContext) {
  const choice = completion.choices[0];
  const content: Record<string, unknown>[] = [];
  const reasoning = choice?.message && reasoningOf(choice.message);
  if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  if (choice?.message.content) content.push({ type: 'text', text: choice.message.content });
  for (const call of choice?.message.tool_calls ?? []) content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call.function.arguments) });
  return {
    id: messageId(completion.id, context),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: stopReason(choice?.finish_reason ?? null),
    stop_sequence: null,
    usage: messagesUsage(usage),
  };
}

/** Reasoning text some upstreams put beside the content (`reasoning_content`, `reasoning`), where an adapter passes it on. */
export function reasoningOf(message: object): string {
  const { reasoning_content: content, reasoning } = message as { reasoning_content?: unknown; reasoning?: unknown };
  return typeof content === 'string' ? content : typeof reasoning === 'string' ? reasoning : '';
}
