import type { ChatCompletionChunk, ResponseContext, ToolCall, Usage } from '../../../../providers/chat/types';
import type { SseText, StreamEncoder, XService } from '../format';
import { callItemIdOf, functionCallItem, incompleteReason, messageIdOf, messageItem, namespacesOf, responseObject } from './from-completion';
import type { ResponsesBody } from './schema';

/**
 * A translated stream as OpenAI's Responses events
 * (https://platform.openai.com/docs/api-reference/responses-streaming): `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its deltas and its
 * `.done` events, and `response.completed` (or `response.incomplete`) with the whole Response and
 * the D15 `x_service` beside it. Every event carries a `sequence_number`.
 */

type Json = Record<string, unknown>;

export const sseEvent = (type: string, data: Json): SseText => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

type Open = { kind: 'message'; text: string; refusal: boolean } | { kind: 'call'; index: number; call: ToolCall };

export interface ResponsesEncoder extends StreamEncoder {
  /** The Response `end` wrote (for the store); null before. */
  final(): Json | null;
}

export function responsesEncoder(body: ResponsesBody, context: ResponseContext): ResponsesEncoder {
  const namespaces = namespacesOf(body);
  let sequence = 0;
  let started = false;
  let open: Open | undefined;
  let finish: string | null = null;
  const output: Json[] = [];

  const emit = (type: string, data: Json) => sseEvent(type, { ...data, sequence_number: sequence++ });
  const start = (): SseText => {
    if (started) return '';
    started = true;
    const response = responseObject(body, context, { status: 'in_progress', output: [] });
    return emit('response.created', { response }) + emit('response.in_progress', { response });
  };
  let written: Json | null = null;
  const itemOf = (current: Open) =>
    current.kind === 'message'
      ? messageItem(context, current.text, 'completed', current.refusal)
      : functionCallItem(callItemIdOf(context, current.index), current.call, 'completed', namespaces);
  const final = (usage: Usage | undefined, items: Json[]) => {
    const incomplete = incompleteReason(finish);
    return responseObject(body, context, { status: incomplete ? 'incomplete' : 'completed', output: items, usage, incomplete });
  };
  const close = (): SseText => {
    if (!open) return '';
    const current = open;
    open = undefined;
    const outputIndex = output.length;
    const item = itemOf(current);
    output.push(item);
    if (current.kind === 'message') {
      const part = (item.content as Json[])[0]!;
      const where = { item_id: messageIdOf(context), output_index: outputIndex, content_index: 0 };
      const done = current.refusal
        ? emit('response.refusal.done', { ...where, refusal: current.text })
        : emit('response.output_text.done', { ...where, text: current.text, logprobs: [] });
      return done + emit('response.content_part.done', { ...where, part }) + emit('response.output_item.done', { output_index: outputIndex, item });
    }
    const id = callItemIdOf(context, current.index);
    return (
      emit('response.function_call_arguments.done', { item_id: id, output_index: outputIndex, arguments: current.call.function.arguments }) +
      emit('response.output_item.done', { output_index: outputIndex, item })
    );
  };
  const text = (delta: string, refusal: boolean): SseText => {
    let out = '';
    if (open?.kind !== 'message' || open.refusal !== refusal) {
      out += close();
      open = { kind: 'message', text: '', refusal };
      const where = { item_id: messageIdOf(context), output_index: output.length, content_index: 0 };
      const part = refusal ? { type: 'refusal', refusal: '' } : { type: 'output_text', text: '', annotations: [], logprobs: [] };
      out += emit('response.output_item.added', { output_index: output.length, item: messageItem(context, '', 'in_progress') });
      out += emit('response.content_part.added', { ...where, part });
    }
    open.text += delta;
    const where = { item_id: messageIdOf(context), output_index: output.length, content_index: 0 };
    return out + (refusal ? emit('response.refusal.delta', { ...where, delta }) : emit('response.output_text.delta', { ...where, delta, logprobs: [] }));
  };

  return {
    chunk(chunk: ChatCompletionChunk) {
      let out = start();
      const choice = chunk.choices[0];
      if (!choice) return out;
      const delta = choice.delta;
      if (delta.content) out += text(delta.content, false);
      if (delta.refusal) out += text(delta.refusal, true);
      for (const piece of delta.tool_calls ?? []) {
        if (!(open?.kind === 'call' && open.index === piece.index)) {
          out += close();
          const call: ToolCall = { id: piece.id ?? `call_${piece.index}`, type: 'function', function: { name: piece.function?.name ?? '', arguments: '' } };
          open = { kind: 'call', index: piece.index, call };
          out += emit('response.output_item.added', { output_index: output.length, item: functionCallItem(callItemIdOf(context, piece.index), call, 'in_progress', namespaces) });
        } else if (piece.function?.name) open.call.function.name += piece.function.name;
        const args = piece.function?.arguments;
        if (args && open?.kind === 'call') {
          open.call.function.arguments += args;
          out += emit('response.function_call_arguments.delta', { item_id: callItemIdOf(context, piece.index), output_index: output.length, delta: args });
        }
      }
      if (choice.finish_reason) finish = choice.finish_reason;
      return out;
    },
    end(usage: Usage | undefined, xService: XService | undefined) {
      const out = start() + close();
      const response = (written = final(usage, output));
      return out + emit(response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response, ...(xService && { x_service: xService }) });
    },
    error(message: string, xService: XService | undefined) {
      return start() + emit('error', { code: 'provider_error', message, param: null, ...(xService && { x_service: xService }) });
    },
    final: () => written,
  };
}
