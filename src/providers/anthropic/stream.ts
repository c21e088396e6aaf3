/**
 * Anthropic's streamed message events -> chat-completion chunks
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming).
 */
import {
  UpstreamStreamError,
  type ChatCompletionChunk,
  type ChunkToolCallDelta,
  type FinishReason,
  type ResponseContext,
  type SseEvent,
  type StreamTranslator,
  type Usage,
} from '../chat/types';
import { isRecord, readUsage, stringOf, toFinishReason, toUsage, type AnthropicUsage } from './wire';

type Delta = ChatCompletionChunk['choices'][number]['delta'];

export function anthropicStreamTranslator(context: ResponseContext): StreamTranslator {
  let id = `chatcmpl-${context.requestId}`;
  let usage: AnthropicUsage | null = null;
  let finished = false;
  let stopped = false;
  // Anthropic numbers every content block; OpenAI numbers tool calls among themselves.
  const toolIndexOfBlock = new Map<number, number>();

  const chunk = (delta: Delta, finishReason: FinishReason | null = null): ChatCompletionChunk => ({
    id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });
  const toolDelta = (call: ChunkToolCallDelta) => chunk({ tool_calls: [call] });
  const addUsage = (value: unknown) => {
    const seen = readUsage(value);
    // message_delta counts are cumulative, and newer API versions repeat the input counts there.
    if (seen) usage = { ...usage, ...seen };
  };

  const handlers: Record<string, (data: Record<string, unknown>) => ChatCompletionChunk[]> = {
    message_start(data) {
      const message = isRecord(data.message) ? data.message : {};
      id = stringOf(message.id) ?? id;
      addUsage(message.usage);
      return [chunk({ role: 'assistant', content: '' })];
    },
    content_block_start(data) {
      const block = isRecord(data.content_block) ? data.content_block : {};
      const blockIndex = typeof data.index === 'number' ? data.index : -1;
      if (block.type === 'text') {
        const text = stringOf(block.text) ?? '';
        return text ? [chunk({ content: text })] : [];
      }
      if (block.type === 'tool_use') {
        const index = toolIndexOfBlock.size;
        toolIndexOfBlock.set(blockIndex, index);
        const name = stringOf(block.name) ?? '';
        return [toolDelta({ index, id: stringOf(block.id) ?? '', type: 'function', function: { name, arguments: '' } })];
      }
      return []; // thinking, redacted_thinking, server tools: not part of the answer
    },
    content_block_delta(data) {
      const delta = isRecord(data.delta) ? data.delta : {};
      if (delta.type === 'text_delta') {
        const text = stringOf(delta.text) ?? '';
        return text ? [chunk({ content: text })] : [];
      }
      if (delta.type === 'input_json_delta') {
        const index = typeof data.index === 'number' ? toolIndexOfBlock.get(data.index) : undefined;
        const piece = stringOf(delta.partial_json) ?? '';
        return index !== undefined && piece ? [toolDelta({ index, function: { arguments: piece } })] : [];
      }
      return []; // thinking_delta, signature_delta, citations_delta
    },
    message_delta(data) {
      addUsage(data.usage);
      const delta = isRecord(data.delta) ? data.delta : {};
      const stopReason = stringOf(delta.stop_reason);
      if (!stopReason || finished) return [];
      finished = true;
      return [chunk({}, toFinishReason(stopReason))];
    },
    message_stop() {
      stopped = true;
      return [];
    },
    error(data) {
      const error = isRecord(data.error) ? data.error : {};
      throw new UpstreamStreamError(stringOf(error.message) ?? 'Anthropic reported an error mid-stream.');
    },
  };

  return {
    push(event) {
      const data = parseData(event);
      const type = event.event ?? stringOf(data.type);
      // ping and event types added after this was written are skipped, as Anthropic asks.
      return type && Object.hasOwn(handlers, type) ? (handlers[type]?.(data) ?? []) : [];
    },
    finish() {
      // A message that stopped without saying why still owes the client a finish_reason.
      if (stopped && !finished) {
        finished = true;
        return [chunk({}, 'stop')];
      }
      return [];
    },
    usage(): Usage | null {
      return usage ? toUsage(usage) : null;
    },
  };
}

/** The event's JSON; unreadable data reads as `{}`, so an `error` event still ends the stream. */
function parseData(event: SseEvent): Record<string, unknown> {
  try {
    const data: unknown = JSON.parse(event.data);
    return isRecord(data) ? data : {};
  } catch {
    return {};
  }
}
