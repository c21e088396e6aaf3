import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../../errors';
import type { ChatCompletionChunk } from '../../../../providers/chat/types';
import { messagesEncoder } from './encoder';
import { messageFromCompletion } from './from-completion';
import { MESSAGES_NATIVE, nativeMessagesRequest } from './native';
import { MessagesRequest, type MessagesBody } from './schema';
import { messagesToChat } from './to-chat';
import { translationIssues } from './translated';
import { refuseUnpriced } from './unpriced';
import { uncarriedBytes } from './uncarried';

const context = { model: 'openai/gpt-4o-mini', requestId: 'req_test', created: 1_700_000_000 };
const body = (extra: Record<string, unknown>): MessagesBody => MessagesRequest.parse({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }], ...extra });
const events = (text: string) =>
  text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [event, data] = frame.split('\n');
      return { event: event!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) as Record<string, unknown> };
    });
const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: ChatCompletionChunk['choices'][number]['finish_reason'] = null): ChatCompletionChunk => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o-mini',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 3, cacheWriteTokens: 2, cacheWrite1hTokens: 1 };

describe('Messages -> chat request', () => {
  it('puts the system prompt first, tool results before the user text, and tool_use blocks as tool calls', () => {
    const chat = messagesToChat(
      body({
        system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }, { type: 'text', text: 'Checking.' }, { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '21C' }] }, { type: 'text', text: 'Thanks' }] },
        ],
        tools: [{ name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        stop_sequences: ['END'],
        top_k: 5,
      }),
    );
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: 'Checking.', tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
      { role: 'tool', tool_call_id: 'toolu_1', content: '21C' },
      { role: 'user', content: 'Thanks' },
    ]);
    expect(chat.tools).toEqual([{ type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }]);
    expect(chat).toMatchObject({ tool_choice: 'required', parallel_tool_calls: false, stop: ['END'], top_k: 5, max_tokens: 100 });
  });

  it('carries base64 images as data URIs and PDFs as files, and keeps Anthropic-only members under their names', () => {
    const chat = messagesToChat(
      body({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } },
              { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBER' } },
              { type: 'text', text: 'Describe' },
            ],
          },
        ],
        thinking: { type: 'enabled', budget_tokens: 2000 },
        context_management: { edits: [] },
      }),
    );
    expect(chat.messages[0]?.content).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBOR' } },
      { type: 'file', file: { filename: 'document.pdf', file_data: 'data:application/pdf;base64,JVBER' } },
      { type: 'text', text: 'Describe' },
    ]);
    expect(chat).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2000 }, context_management: { edits: [] } });
    expect(messagesToChat(body({ thinking: { type: 'disabled' } }))).not.toHaveProperty('thinking');
  });


  it("keeps system turns among the others, and output_config's JSON schema as response_format, its effort under its own name", () => {
    const chat = messagesToChat(
      body({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'system', content: [{ type: 'text', text: 'Now be terse.' }] },
        ],
        output_config: { effort: 'high', format: { type: 'json_schema', schema: { type: 'object' } } },
      }),
    );
    expect(chat.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Now be terse.' },
    ]);
    expect(chat).toMatchObject({ response_format: { type: 'json_schema', json_schema: { name: 'output', schema: { type: 'object' }, strict: true } }, output_config: { effort: 'high' } });
  });
});

describe('what a translated route cannot carry', () => {
  it('announces cache_control, metadata and earlier thinking', () => {
    const issues = translationIssues(
      body({
        metadata: { user_id: 'u1' },
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
          { role: 'assistant', content: [{ type: 'thinking', thinking: 'x', signature: 's' }, { type: 'text', text: 'Hello' }] },
          { role: 'user', content: 'Again' },
        ],
      }),
    );
    expect(issues.sort()).toEqual(['cache_control', 'metadata', 'thinking']);
  });

  it.each([
    [{ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }, 'tools.0'],
    [{ messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'url', url: 'https://x/a.pdf' } }] }] }, 'messages.0.content.0.source'],
    [{ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'x' } }] }] }] }, 'messages.0.content.0.content.0'],
  ])('refuses %j with a 400 naming %s', (extra, param) => {
    let error: unknown;
    try {
      translationIssues(body(extra));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).options.param).toBe(param);
  });
});

describe('what no route serves, Anthropic included (D33)', () => {
  it.each([
    [{ speed: 'fast' }, 'speed'],
    [{ inference_geo: 'us' }, 'inference_geo'],
    [{ fallbacks: ['claude-sonnet-4-5'] }, 'fallbacks'],
    [{ container: 'container_1' }, 'container'],
    [{ tools: [{ type: 'custom', name: 'x', input_schema: {} }, { type: 'web_search_20250305', name: 'web_search' }] }, 'tools.1'],
    // No fee of its own, but what it fetches comes back as input no hold bounds.
    [{ tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] }, 'tools.0'],
    [{ mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] }, 'mcp_servers'],
  ])('refuses %j with a 400 naming %s', (extra, param) => {
    expect(() => refuseUnpriced(body(extra))).toThrow(expect.objectContaining({ options: { param } }));
  });

  it('passes the values that bill nothing more', () => {
    expect(() => refuseUnpriced(body({ speed: 'standard', inference_geo: 'global', service_tier: 'auto', tools: [{ type: 'bash_20250124', name: 'bash' }] }))).not.toThrow();
  });
});

describe('translated answers in the Messages shape', () => {
  it('streams text then a tool call as numbered blocks, ending with stop reason, itemized usage and x_service', () => {
    const encoder = messagesEncoder(context);
    const text = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Let me ' }),
      chunk({ content: 'check.' }),
      chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'weather', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({}, 'tool_calls'),
    ]
      .map((c) => encoder.chunk(c))
      .join('') + encoder.end(usage, { request_id: 'req_test', cost_usd: '0.000010' });
    const seen = events(text);
    expect(seen.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(seen[5]?.data).toEqual({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_1', name: 'weather', input: {} } });
    expect(seen[7]?.data).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } });
    expect(seen[9]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 10, cache_creation_input_tokens: 3, cache_read_input_tokens: 3, cache_creation: { ephemeral_5m_input_tokens: 2, ephemeral_1h_input_tokens: 1 }, output_tokens: 5 },
      x_service: { request_id: 'req_test', cost_usd: '0.000010' },
    });
  });

  it("writes reasoning a chunk carries (DeepSeek's reasoning_content) as a thinking block before the text", () => {
    const encoder = messagesEncoder(context);
    const text = [chunk({ reasoning_content: 'Hmm.' } as never), chunk({ content: 'Hi' }), chunk({}, 'stop')].map((c) => encoder.chunk(c)).join('') + encoder.end(usage, undefined);
    const seen = events(text).map((e) => e.data);
    expect(seen.slice(1, 6)).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } },
    ]);
    expect(seen.at(-2)).toMatchObject({ type: 'message_delta', delta: { stop_reason: 'end_turn' } });
    expect(seen.at(-2)).not.toHaveProperty('x_service');
  });

  it('writes a whole answer as a Message with text and tool_use blocks', () => {
    const message = messageFromCompletion(
      {
        id: 'chatcmpl-9',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'Sure.', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] }, finish_reason: 'tool_calls' }],
      },
      usage,
      context,
    );
    expect(message).toMatchObject({
      id: 'msg_chatcmpl-9',
      type: 'message',
      role: 'assistant',
      model: 'openai/gpt-4o-mini',
      content: [{ type: 'text', text: 'Sure.' }, { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3, cache_creation_input_tokens: 3 },
    });
  });
});

describe('the Anthropic pass-through', () => {
  const target = { baseUrl: 'https://api.anthropic.test/v1', apiKey: 'sk-ant', upstreamModel: 'claude-haiku-4-5-20251001' };

  it('sends the body intact but the model id and the lowered cap, with the beta header and query', () => {
    const clientHeaders = new Headers({ 'anthropic-beta': 'context-management-2025-06-27', 'anthropic-version': '2023-06-01', authorization: 'Bearer ours' });
    const sent = nativeMessagesRequest(body({ thinking: { type: 'enabled', budget_tokens: 5000 }, context_management: { edits: [] }, future_member: 1 }), target, { maxTokens: 3000, clientHeaders, clientQuery: 'beta=true' });
    expect(sent.url).toBe('https://api.anthropic.test/v1/messages?beta=true');
    expect(sent.headers).toEqual({ 'x-api-key': 'sk-ant', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-management-2025-06-27', 'content-type': 'application/json' });
    expect(JSON.parse(sent.body)).toEqual({
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 3000,
      messages: [{ role: 'user', content: 'Hi' }],
      thinking: { type: 'enabled', budget_tokens: 2999 },
      context_management: { edits: [] },
      future_member: 1,
    });
  });

  it("leaves the 1M-context beta (billed at a premium) out of the client's betas, and keeps the rest as sent", () => {
    const target = { baseUrl: 'https://api.anthropic.test/v1', apiKey: 'sk-ant', upstreamModel: 'claude-sonnet-4-5' };
    const sent = (betas: string) => nativeMessagesRequest(body({}), target, { maxTokens: null, clientHeaders: new Headers({ 'anthropic-beta': betas }), clientQuery: '' }).headers['anthropic-beta'];
    expect(sent('claude-code-20250219, context-1m-2025-08-07,interleaved-thinking-2025-05-14')).toBe('claude-code-20250219,interleaved-thinking-2025-05-14');
    expect(sent('context-1m-2025-08-07')).toBeUndefined();
    expect(sent('claude-code-20250219, interleaved-thinking-2025-05-14')).toBe('claude-code-20250219, interleaved-thinking-2025-05-14');
  });

  it('passes events as they came, holding back the last message_delta to add x_service', () => {
    const reader = MESSAGES_NATIVE.streamReader(context);
    const push = (event: string, data: unknown) => reader.push({ event, data: JSON.stringify(data) });
    const start = push('message_start', { type: 'message_start', message: { id: 'msg_1', model: 'claude-x', usage: { input_tokens: 7, cache_read_input_tokens: 4, cache_creation_input_tokens: 3, cache_creation: { ephemeral_5m_input_tokens: 1, ephemeral_1h_input_tokens: 2 }, output_tokens: 1 } } });
    expect(events(start.out)[0]?.data).toMatchObject({ message: { model: 'openai/gpt-4o-mini' } });
    expect(push('ping', { type: 'ping' }).out).toBe('event: ping\ndata: {"type":"ping"}\n\n');
    const thinking = push('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } });
    expect(thinking).toMatchObject({ delivered: true, text: 'Hmm' });
    const signature = push('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig' } });
    expect(signature.out).toBe('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"sig"}}\n\n');
    expect(push('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } }).out).toBe('');
    expect(push('message_stop', { type: 'message_stop' })).toMatchObject({ out: '', finished: true });
    expect(reader.usage()).toEqual({ inputTokens: 7, outputTokens: 9, cacheReadTokens: 4, cacheWriteTokens: 1, cacheWrite1hTokens: 2 });
    const end = events(reader.end(reader.usage()!, { request_id: 'req_test' }));
    expect(end).toEqual([
      { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 }, x_service: { request_id: 'req_test' } } },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  });

  it('counts what only Anthropic receives (earlier thinking, cache_control) in the hold', () => {
    const plain = body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
    expect(uncarriedBytes(plain)).toBe(0);
    const rich = body({
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'x'.repeat(1000), signature: 's'.repeat(500) }] },
        { role: 'user', content: 'Go' },
      ],
    });
    expect(uncarriedBytes(rich)).toBeGreaterThan(1500);
  });
});
