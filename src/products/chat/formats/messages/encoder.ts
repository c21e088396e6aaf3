/**
 * Internal chat chunks written as Anthropic's stream (https://docs.anthropic.com/en/docs/build-with-claude/streaming):
 * `message_start`, then each content block opened, filled and closed in turn (`text_delta`,
 * `input_json_delta` for tool_use, `thinking_delta` where a chunk carries reasoning), then
 * `message_delta` with the stop reason, the billed usage and `x_service` (D15), and `message_stop`.
 */
import type { ChatCompletionChunk, FinishReason, ResponseContext, Usage } from '../../../../providers/chat/types';
import type { SseText, StreamEncoder, XService } from '../format';
import { messageId, messagesUsage, reasoningOf, stopReason } from './from-completion';

export const sse = (name: string, data: unknown): SseText => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** Anthropic's error event (as its API sends mid-stream), with `x_service` when a charge was acknowledged. */
export function errorEvent(message: string, xService: XService | undefined): SseText {
  return sse('error', { type: 'error', error: { type: 'api_error', message }, ...(xService && { x_service: xService }) });
}

type Open = { kind: 'text' | 'thinking' } | { kind: 'tool'; call: number };

export function messagesEncoder(context: ResponseContext): StreamEncoder {
  let started = false;
  let blocks = 0;
  let open: Open | null = null;
  let finish: FinishReason | null = null;

  const start = (id: string | undefined): SseText => {
    if (started) return '';
    started = true;
    const message = { id: messageId(id, context), type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    return sse('message_start', { type: 'message_start', message });
  };
  const close = (): SseText => {
    if (!open) return '';
    open = null;
    return sse('content_block_stop', { type: 'content_block_stop', index: blocks - 1 });
  };
  const openBlock = (next: Open, block: Record<string, unknown>): SseText => {
    const out = close() + sse('content_block_start', { type: 'content_block_start', index: blocks, content_block: block });
    blocks += 1;
    open = next;
    return out;
  };
  const delta = (delta: Record<string, unknown>) => sse('content_block_delta', { type: 'content_block_delta', index: blocks - 1, delta });

  return {
    chunk(chunk: ChatCompletionChunk): SseText {
      let out = start(chunk.id);
      for (const choice of chunk.choices.filter((c) => c.index === 0)) {
        const thinking = reasoningOf(choice.delta);
        if (thinking) {
          if (open?.kind !== 'thinking') out += openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
          out += delta({ type: 'thinking_delta', thinking });
        }
        if (choice.delta.content) {
          if (open?.kind !== 'text') out += openBlock({ kind: 'text' }, { type: 'text', text: '' });
          out += delta({ type: 'text_delta', text: choice.delta.content });
        }
        for (const call of choice.delta.tool_calls ?? []) {
          // A call starts with its id and name; chat numbers calls, Anthropic numbers every block.
          if (call.id !== undefined || !(open?.kind === 'tool' && open.call === call.index)) {
            out += openBlock({ kind: 'tool', call: call.index }, { type: 'tool_use', id: call.id ?? `toolu_${context.requestId}_${call.index}`, name: call.function?.name ?? '', input: {} });
          }
          const piece = call.function?.arguments;
          if (piece) out += delta({ type: 'input_json_delta', partial_json: piece });
        }
        if (choice.finish_reason) finish = choice.finish_reason;
      }
      return out;
    },
    end(usage: Usage | undefined, xService: XService | undefined): SseText {
      const message = { type: 'message_delta', delta: { stop_reason: stopReason(finish), stop_sequence: null }, usage: usage ? messagesUsage(usage) : { output_tokens: 0 }, ...(xService && { x_service: xService }) };
      return start(undefined) + close() + sse('message_delta', message) + sse('message_stop', { type: 'message_stop' });
    },
    error: errorEvent,
  };
}
