import { describe, expect, it } from 'vitest';
import type { ChatCompletionChunk } from '../../../../providers/chat/types';
import { responsesEncoder } from './encoder';
import { ResponsesRequest } from './schema';

const context = { model: 'anthropic/claude-haiku-4-5', requestId: 'req_abc', created: 1_700_000_000 };
const usage = { inputTokens: 10, outputTokens: 4, cacheReadTokens: 3, cacheWriteTokens: 2, reasoningTokens: 1 };
const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const events = (sse: string) =>
  sse
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [event, data] = frame.split('\n');
      const parsed = JSON.parse(data!.slice('data: '.length)) as Record<string, unknown>;
      expect(event).toBe(`event: ${String(parsed.type)}`);
      return parsed;
    });

describe('the Responses stream encoder', () => {
  it('writes a text answer as OpenAI does, numbered in order, and ends with the usage and x_service', () => {
    const encoder = responsesEncoder(ResponsesRequest.parse({ model: 'x', input: 'hi', store: false }), context);
    const sse = [chunk({ role: 'assistant', content: 'Hel' }), chunk({ content: 'lo' }), chunk({}, 'stop')].map((c) => encoder.chunk(c)).join('') + encoder.end(usage, { request_id: 'req_abc', cost_usd: '0.000010', credits_remaining_usd: '1.000000' });
    const all = events(sse);
    expect(all.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    const completed = all.at(-1)!;
    expect(completed.x_service).toEqual({ request_id: 'req_abc', cost_usd: '0.000010', credits_remaining_usd: '1.000000' });
    expect(completed.response).toMatchObject({
      id: 'resp_abc',
      object: 'response',
      status: 'completed',
      model: 'anthropic/claude-haiku-4-5',
      store: false,
      output: [{ id: 'msg_abc', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Hello', annotations: [] }] }],
      usage: { input_tokens: 15, input_tokens_details: { cached_tokens: 3, cache_write_tokens: 2 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 19 },
    });
    expect(all[6]).toMatchObject({ type: 'response.output_text.done', text: 'Hello', item_id: 'msg_abc', output_index: 0, content_index: 0 });
  });

  it('writes tool calls as function_call items with argument deltas, a namespaced one under its namespace', () => {
    const body = ResponsesRequest.parse({ model: 'x', input: 'hi', tools: [{ type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'spawn' }] }] });
    const encoder = responsesEncoder(body, context);
    const sse =
      [
        chunk({ content: 'Let me.' }),
        chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'agents__spawn', arguments: '{"a"' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':1}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_2', type: 'function', function: { name: 'other', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ]
        .map((c) => encoder.chunk(c))
        .join('') + encoder.end(usage, undefined);
    const all = events(sse);
    const done = all.filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
    expect(done).toEqual([
      expect.objectContaining({ type: 'message' }),
      { id: 'fc_abc_0', type: 'function_call', status: 'completed', call_id: 'call_1', namespace: 'agents', name: 'spawn', arguments: '{"a":1}' },
      { id: 'fc_abc_1', type: 'function_call', status: 'completed', call_id: 'call_2', name: 'other', arguments: '{}' },
    ]);
    expect(all.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => [e.output_index, e.delta])).toEqual([
      [1, '{"a"'],
      [1, ':1}'],
      [2, '{}'],
    ]);
    expect(all.find((e) => e.type === 'response.function_call_arguments.done')).toMatchObject({ item_id: 'fc_abc_0', arguments: '{"a":1}' });
    expect((all.at(-1)!.response as { output: unknown[] }).output).toEqual(done);
    expect(all.at(-1)).not.toHaveProperty('x_service');
  });

  it('ends an answer cut at the cap with response.incomplete, and a failed one with an error event', () => {
    const encoder = responsesEncoder(ResponsesRequest.parse({ model: 'x', input: 'hi' }), context);
    const sse = encoder.chunk(chunk({ content: 'Hi' }, 'length')) + encoder.end(usage, undefined);
    expect(events(sse).at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } } });
    const failed = responsesEncoder(ResponsesRequest.parse({ model: 'x', input: 'hi' }), context);
    expect(events(failed.chunk(chunk({ content: 'Hi' })) + failed.error('upstream broke off', undefined)).at(-1)).toMatchObject({ type: 'error', code: 'provider_error', message: 'upstream broke off' });
  });
});
