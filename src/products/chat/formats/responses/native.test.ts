import { describe, expect, it } from 'vitest';
import { UpstreamStreamError } from '../../../../providers/chat/types';
import { nativeReader, nativeWire } from './native';
import { ResponsesRequest } from './schema';

const context = { model: 'openai/gpt-4o-mini', requestId: 'req_abc', created: 1_700_000_000 };
const event = (data: Record<string, unknown>) => ({ event: String(data.type), data: JSON.stringify(data) });
const usage = { input_tokens: 20, input_tokens_details: { cached_tokens: 8 }, output_tokens: 6, output_tokens_details: { reasoning_tokens: 2 }, total_tokens: 26 };

describe("OpenAI's own Responses API, passed through", () => {
  it('sends the body intact but the model id and the lowered cap', () => {
    const body = ResponsesRequest.parse({ model: 'openai/gpt-4o-mini', input: 'hi', store: false, include: ['reasoning.encrypted_content'], tools: [{ type: 'web_search' }], odd: 1 });
    const sent = nativeWire().buildRequest(body, { baseUrl: 'https://api.openai.com/v1', apiKey: 'sk', upstreamModel: 'gpt-4o-mini' }, { maxTokens: 900, clientHeaders: new Headers(), clientQuery: '' });
    expect(sent.url).toBe('https://api.openai.com/v1/responses');
    expect(sent.headers.Authorization).toBe('Bearer sk');
    expect(JSON.parse(sent.body)).toEqual({ ...body, model: 'gpt-4o-mini', max_output_tokens: 900 });
  });

  it('passes events through, the model id the client asked for, and holds response.completed back for x_service', () => {
    const reader = nativeReader(context);
    const created = reader.push(event({ type: 'response.created', sequence_number: 0, response: { id: 'resp_1', model: 'gpt-4o-mini-2024-07-18', output: [] } }));
    expect(JSON.parse(created.out.split('\n')[1]!.slice(6))).toMatchObject({ response: { model: 'openai/gpt-4o-mini' }, sequence_number: 0 });
    const delta = { type: 'response.output_text.delta', sequence_number: 1, item_id: 'msg_1', output_index: 0, content_index: 0, delta: 'Hi', logprobs: [] };
    expect(reader.push(event(delta))).toEqual({ out: `event: response.output_text.delta\ndata: ${JSON.stringify(delta)}\n\n`, delivered: true, finished: false, text: 'Hi' });
    const final = reader.push(event({ type: 'response.completed', sequence_number: 2, response: { id: 'resp_1', model: 'gpt-4o-mini-2024-07-18', output: [], usage } }));
    expect(final).toEqual({ out: '', delivered: false, finished: true, text: '' });
    expect(reader.usage()).toEqual({ inputTokens: 12, outputTokens: 6, cacheReadTokens: 8, cacheWriteTokens: 0, reasoningTokens: 2 });
    const end = JSON.parse(reader.end(undefined, { cost_usd: '0.1' }).split('\n')[1]!.slice(6));
    expect(end).toEqual({ type: 'response.completed', sequence_number: 2, response: { id: 'resp_1', model: 'openai/gpt-4o-mini', output: [], usage }, x_service: { cost_usd: '0.1' } });
    expect(JSON.parse(reader.error('gone', undefined).split('\n')[1]!.slice(6))).toMatchObject({ type: 'error', sequence_number: 3 });
  });

  it('turns an error event or response.failed into a stream error', () => {
    expect(() => nativeReader(context).push(event({ type: 'error', message: 'overloaded', sequence_number: 1 }))).toThrow(UpstreamStreamError);
    expect(() => nativeReader(context).push(event({ type: 'response.failed', response: { error: { message: 'bad' } } }))).toThrow('bad');
  });

  it('reads a whole answer: its usage, its text, the model id the client asked for', () => {
    const parsed = nativeWire().parseResponse({ id: 'resp_1', model: 'gpt-4o-mini', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello' }] }], usage }, context);
    expect(parsed.text).toBe('Hello');
    expect(parsed.body).toMatchObject({ model: 'openai/gpt-4o-mini' });
    expect(parsed.usage).toMatchObject({ inputTokens: 12, cacheReadTokens: 8 });
  });
});
