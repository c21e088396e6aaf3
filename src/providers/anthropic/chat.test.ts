import { describe, it, expect } from 'vitest';
import { GatewayError } from '../../errors';
import { UpstreamStreamError, type ChatCompletionChunk, type ChatRequest, type SseEvent } from '../chat/types';
import { anthropicChat } from './chat';
import errorNotFound from '../../../test/fixtures/providers/anthropic/error-not-found.json';
import errorOverloaded from '../../../test/fixtures/providers/anthropic/error-overloaded.json';
import messageCacheRead from '../../../test/fixtures/providers/anthropic/message-cache-read.json';
import messageMaxTokens from '../../../test/fixtures/providers/anthropic/message-max-tokens.json';
import messageRefusal from '../../../test/fixtures/providers/anthropic/message-refusal.json';
import messageStopSequence from '../../../test/fixtures/providers/anthropic/message-stop-sequence.json';
import messageText from '../../../test/fixtures/providers/anthropic/message-text.json';
import messageThinkingCached from '../../../test/fixtures/providers/anthropic/message-thinking-cached.json';
import messageToolUse from '../../../test/fixtures/providers/anthropic/message-tool-use.json';
import { streamError } from '../../../test/fixtures/providers/anthropic/stream-error';
import { streamText } from '../../../test/fixtures/providers/anthropic/stream-text';
import { streamThinking } from '../../../test/fixtures/providers/anthropic/stream-thinking';
import { streamToolUse } from '../../../test/fixtures/providers/anthropic/stream-tool-use';
import { streamTwoToolsCached } from '../../../test/fixtures/providers/anthropic/stream-two-tools-cached';
import { TOOL_RESULT, TOOL_TURN_CASES } from '../../../test/fixtures/providers/tool-call-turns';

const target = { baseUrl: 'https://api.anthropic.com/v1', apiKey: 'sk-ant-test', upstreamModel: 'claude-sonnet-4-5' };
const context = { model: 'anthropic/claude-sonnet-4.5', requestId: 'req_gw_1', created: 1_700_000_000 };
const noFetch = async (): Promise<never> => {
  throw new Error('Anthropic takes image URLs; nothing should be fetched');
};

async function upstreamBody(request: Partial<ChatRequest>): Promise<Record<string, unknown>> {
  const built = await anthropicChat.buildRequest({ model: 'anthropic/claude-sonnet-4.5', messages: [], ...request }, target, noFetch);
  return JSON.parse(built.body) as Record<string, unknown>;
}

const hi: ChatRequest['messages'] = [{ role: 'user', content: 'Hi' }];

/** Splits raw SSE text into events the way the gateway's reader hands them to a translator. */
function sseEvents(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const event: SseEvent = { data: '' };
      const data: string[] = [];
      for (const line of frame.split('\n')) {
        if (line.startsWith('event:')) event.event = line.slice(6).trim();
        if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      }
      event.data = data.join('\n');
      return event;
    });
}

function translate(text: string) {
  const translator = anthropicChat.streamTranslator(context);
  const chunks = sseEvents(text).flatMap((event) => translator.push(event));
  chunks.push(...translator.finish());
  return { chunks, usage: translator.usage() };
}

const deltas = (chunks: ChatCompletionChunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta);
const contentOf = (chunks: ChatCompletionChunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
const finishReasons = (chunks: ChatCompletionChunk[]) => chunks.flatMap((chunk) => chunk.choices[0]?.finish_reason ?? []);

/** Tool calls reassembled from their deltas, the way an OpenAI client does it. */
function toolCallsOf(chunks: ChatCompletionChunk[]) {
  const calls: { id?: string; name?: string; arguments: string }[] = [];
  for (const call of chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])) {
    const current = (calls[call.index] ??= { arguments: '' });
    if (call.id) current.id = call.id;
    if (call.function?.name) current.name = call.function.name;
    current.arguments += call.function?.arguments ?? '';
  }
  return calls;
}

describe('anthropicChat.buildRequest', () => {
  it('posts to /v1/messages with the key, the API version and a JSON body', async () => {
    const built = await anthropicChat.buildRequest({ model: 'anthropic/claude-sonnet-4.5', messages: hi }, target, noFetch);
    expect(built.url).toBe('https://api.anthropic.com/v1/messages');
    expect(built.headers).toEqual({ 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' });
    expect(JSON.parse(built.body)).toEqual({ model: 'claude-sonnet-4-5', max_tokens: 4096, messages: [{ role: 'user', content: 'Hi' }] });
  });

  it('lifts system and developer messages into `system` and merges consecutive same-role turns', async () => {
    const body = await upstreamBody({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
        { role: 'user', content: 'Hello' },
        { role: 'user', content: [{ type: 'text', text: 'Are you there?' }] },
        { role: 'assistant', content: 'Oui.' },
        { role: 'assistant', content: 'Bonjour.' },
        { role: 'user', content: 'Merci' },
      ],
    });
    expect(body.system).toBe('You are terse.\n\nAnswer in French.');
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hello' }, { type: 'text', text: 'Are you there?' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Oui.' }, { type: 'text', text: 'Bonjour.' }] },
      { role: 'user', content: 'Merci' },
    ]);
  });

  it.each([
    { given: { max_tokens: 100 }, sent: 100 },
    { given: { max_completion_tokens: 200 }, sent: 200 },
    { given: { max_tokens: 50, max_completion_tokens: 200 }, sent: 50 },
    { given: {}, sent: 4096 },
  ])('sends max_tokens $sent for $given', async ({ given, sent }) => {
    expect((await upstreamBody({ messages: hi, ...given })).max_tokens).toBe(sent);
  });

  it.each([
    { temperature: 0, sent: 0 },
    { temperature: 0.7, sent: 0.7 },
    { temperature: 1, sent: 1 },
    { temperature: 1.5, sent: 1 },
    { temperature: 2, sent: 1 },
  ])('clamps temperature $temperature to Anthropic range as $sent', async ({ temperature, sent }) => {
    expect((await upstreamBody({ messages: hi, temperature })).temperature).toBe(sent);
  });

  it('passes top_p through', async () => {
    expect((await upstreamBody({ messages: hi, top_p: 0.9 })).top_p).toBe(0.9);
  });

  it.each([
    { stop: 'END', sent: ['END'] },
    { stop: ['\n\n', 'Human:'], sent: ['\n\n', 'Human:'] },
    { stop: [], sent: undefined },
  ])('sends stop $stop as stop_sequences $sent', async ({ stop, sent }) => {
    expect((await upstreamBody({ messages: hi, stop })).stop_sequences).toEqual(sent);
  });

  it('sends stream: true only for streamed requests', async () => {
    expect((await upstreamBody({ messages: hi, stream: true })).stream).toBe(true);
    expect(await upstreamBody({ messages: hi, stream: false })).not.toHaveProperty('stream');
  });

  it('leaves out OpenAI-only fields', async () => {
    const body = await upstreamBody({
      messages: hi,
      n: 1,
      seed: 7,
      frequency_penalty: 0.5,
      presence_penalty: 0.5,
      logprobs: true,
      top_logprobs: 2,
      logit_bias: { '50256': -100 },
      response_format: { type: 'json_object' },
    });
    expect(Object.keys(body).sort()).toEqual(['max_tokens', 'messages', 'model']);
  });

  const weather = {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Get the current weather in a given location',
      parameters: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
    },
  };

  it('turns function tools into name, description and input_schema', async () => {
    const body = await upstreamBody({ messages: hi, tools: [weather, { type: 'function', function: { name: 'now' } }] });
    expect(body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Get the current weather in a given location',
        input_schema: { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] },
      },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body).not.toHaveProperty('tool_choice');
  });

  it.each([
    { tool_choice: 'auto', sent: { type: 'auto' } },
    { tool_choice: 'required', sent: { type: 'any' } },
    { tool_choice: 'none', sent: { type: 'none' } },
    { tool_choice: { type: 'function', function: { name: 'get_weather' } }, sent: { type: 'tool', name: 'get_weather' } },
  ])('maps tool_choice $tool_choice to $sent', async ({ tool_choice, sent }) => {
    expect((await upstreamBody({ messages: hi, tools: [weather], tool_choice })).tool_choice).toEqual(sent);
  });

  it.each([
    { tool_choice: undefined, sent: { type: 'auto', disable_parallel_tool_use: true } },
    { tool_choice: 'required', sent: { type: 'any', disable_parallel_tool_use: true } },
  ])('maps parallel_tool_calls: false with tool_choice $tool_choice to $sent', async ({ tool_choice, sent }) => {
    const body = await upstreamBody({ messages: hi, tools: [weather], tool_choice, parallel_tool_calls: false });
    expect(body.tool_choice).toEqual(sent);
  });

  it('rejects a tool_choice it cannot express, naming the field', async () => {
    const built = upstreamBody({ messages: hi, tools: [weather], tool_choice: { type: 'allowed_tools' } });
    await expect(built).rejects.toThrow(GatewayError);
    await expect(built).rejects.toMatchObject({ code: 'invalid_request', options: { param: 'tool_choice' } });
  });

  it('carries a tool call round trip as tool_use blocks and one merged user turn of tool_result blocks', async () => {
    const body = await upstreamBody({
      messages: [
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Paris"}' } },
            { id: 'toolu_01B', type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '15 degrees' },
        { role: 'tool', tool_call_id: 'toolu_01B', content: [{ type: 'text', text: '14:05' }] },
        { role: 'user', content: 'Thanks, and tomorrow?' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather and time in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { location: 'Paris' } },
          { type: 'tool_use', id: 'toolu_01B', name: 'get_time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_01A', content: '15 degrees' },
          { type: 'tool_result', tool_use_id: 'toolu_01B', content: [{ type: 'text', text: '14:05' }] },
          { type: 'text', text: 'Thanks, and tomorrow?' },
        ],
      },
    ]);
  });

  it('sends an assistant turn with only tool calls and null content as tool_use blocks alone', async () => {
    const body = await upstreamBody({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'w', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 't1', content: '' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'w', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
    ]);
  });

  // Anthropic answers 400 to an empty or whitespace-only text block.
  it.each(TOOL_TURN_CASES)('sends a tool_calls turn whose content is $content (stream $stream) as tool_use blocks and no empty text', async ({ request, stream, said }) => {
    const body = await upstreamBody(request);
    expect(body.stream).toBe(stream || undefined);
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [...(said.trim() ? [{ type: 'text', text: said }] : []), { type: 'tool_use', id: 'call_paris', name: 'get_weather', input: { city: 'Paris' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_paris', content: TOOL_RESULT }] },
    ]);
  });

  it.each(['{"location":', '"Paris"', '[1,2]'])('rejects tool-call arguments %j that are not a JSON object', async (args) => {
    const built = upstreamBody({
      messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 't1', type: 'function', function: { name: 'w', arguments: args } }] }],
    });
    await expect(built).rejects.toMatchObject({ code: 'invalid_request', options: { param: 'messages.0.tool_calls.0.function.arguments' } });
  });

  it('sends an https image as a url source and a data URI as a base64 source', async () => {
    const body = await upstreamBody({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare these.' },
            { type: 'image_url', image_url: { url: 'https://upload.wikimedia.org/cat.jpg', detail: 'high' } },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', source: { type: 'url', url: 'https://upload.wikimedia.org/cat.jpg' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('rejects an image data URI that is not base64, naming the part', async () => {
    const built = upstreamBody({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/svg+xml,<svg/>' } }] }] });
    await expect(built).rejects.toMatchObject({ code: 'invalid_request', options: { param: 'messages.0.content.0.image_url.url' } });
  });

  it('sends a PDF file part as a base64 document', async () => {
    const body = await upstreamBody({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
            { type: 'text', text: 'Summarise this.' },
          ],
        },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK' } },
          { type: 'text', text: 'Summarise this.' },
        ],
      },
    ]);
  });
});

describe('anthropicChat.parseResponse', () => {
  it('turns a text message into a chat completion with its usage', () => {
    const { completion, usage } = anthropicChat.parseResponse(messageText, context);
    expect(completion).toEqual({
      id: 'msg_013Zva2CMHLNnXjNJJKqJ2EF',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'anthropic/claude-sonnet-4.5',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi! My name is Claude.', refusal: null }, finish_reason: 'stop', logprobs: null }],
      usage: {
        prompt_tokens: 2095,
        completion_tokens: 503,
        total_tokens: 2598,
        prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0 },
      },
    });
    expect(usage).toEqual({ inputTokens: 2095, outputTokens: 503, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });

  it('turns tool_use blocks into tool calls with JSON-string arguments', () => {
    const { completion, usage } = anthropicChat.parseResponse(messageToolUse, context);
    expect(completion.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: "I'll check the current weather in San Francisco for you.",
        tool_calls: [
          {
            id: 'toolu_01A09q90qw90lq917835lq9',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
          },
        ],
        refusal: null,
      },
      finish_reason: 'tool_calls',
      logprobs: null,
    });
    // This documented example carries no usage.
    expect(usage).toBeNull();
    expect(completion).not.toHaveProperty('usage');
  });

  it.each([
    { name: 'end_turn', body: messageText, finish: 'stop' },
    { name: 'stop_sequence', body: messageStopSequence, finish: 'stop' },
    { name: 'max_tokens', body: messageMaxTokens, finish: 'length' },
    { name: 'tool_use', body: messageToolUse, finish: 'tool_calls' },
    { name: 'refusal', body: messageRefusal, finish: 'content_filter' },
  ])('maps stop_reason $name to finish_reason $finish', ({ body, finish }) => {
    expect(anthropicChat.parseResponse(body, context).completion.choices[0]?.finish_reason).toBe(finish);
  });

  it('gives null content when the message has no text', () => {
    expect(anthropicChat.parseResponse(messageRefusal, context).completion.choices[0]?.message.content).toBeNull();
  });

  it('leaves thinking out of the content and counts cache writes in prompt_tokens', () => {
    const { completion, usage } = anthropicChat.parseResponse(messageThinkingCached, context);
    expect(completion.choices[0]?.message.content).toBe('Based on my analysis...');
    expect(usage).toEqual({ inputTokens: 21, outputTokens: 393, cacheReadTokens: 0, cacheWriteTokens: 188086, cacheWrite1hTokens: 0 });
    expect(completion.usage).toEqual({
      prompt_tokens: 188107,
      completion_tokens: 393,
      total_tokens: 188500,
      prompt_tokens_details: { cached_tokens: 0, cache_write_tokens: 188086 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('splits cache writes by lifetime from cache_creation, and counts unsplit writes as 5-minute ones', () => {
    const body = (usage: Record<string, unknown>) => ({ ...messageText, usage: { input_tokens: 10, output_tokens: 4, cache_read_input_tokens: 7, ...usage } });
    const split = { cache_creation_input_tokens: 500, cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 300 } };
    const { completion, usage } = anthropicChat.parseResponse(body(split), context);
    expect(usage).toEqual({ inputTokens: 10, outputTokens: 4, cacheReadTokens: 7, cacheWriteTokens: 200, cacheWrite1hTokens: 300 });
    expect(completion.usage?.prompt_tokens_details).toEqual({ cached_tokens: 7, cache_write_tokens: 500 });
    expect(anthropicChat.parseResponse(body({ cache_creation_input_tokens: 500 }), context).usage).toMatchObject({ cacheWriteTokens: 500, cacheWrite1hTokens: 0 });
  });

  it('reads the 1-hour writes of a stream from message_start', () => {
    const translator = anthropicChat.streamTranslator(context);
    const usage = { input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 50, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 50 } };
    translator.push({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'msg_1h', usage } }) });
    translator.push({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 9 } }) });
    expect(translator.usage()).toEqual({ inputTokens: 3, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 50 });
  });

  it('counts cache reads in prompt_tokens and reports them as cached_tokens', () => {
    const { completion, usage } = anthropicChat.parseResponse(messageCacheRead, context);
    expect(usage).toEqual({ inputTokens: 21, outputTokens: 393, cacheReadTokens: 188086, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
    expect(completion.usage).toEqual({
      prompt_tokens: 188107,
      completion_tokens: 393,
      total_tokens: 188500,
      prompt_tokens_details: { cached_tokens: 188086, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });
});

describe('anthropicChat.streamTranslator', () => {
  it('streams text as content deltas under the message id, role first, finish_reason at message_delta', () => {
    const { chunks, usage } = translate(streamText);
    expect(chunks.map((chunk) => chunk.id)).toEqual(Array(chunks.length).fill('msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY'));
    expect(chunks[0]).toEqual({
      id: 'msg_1nZdL29xx5MUA1yADyHTEsnR8uuvGzszyY',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'anthropic/claude-sonnet-4.5',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(deltas(chunks)).toEqual([{ role: 'assistant', content: '' }, { content: 'Hello' }, { content: '!' }, {}]);
    expect(finishReasons(chunks)).toEqual(['stop']);
    expect(usage).toEqual({ inputTokens: 25, outputTokens: 15, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });

  it('streams a tool call as a named delta then argument pieces at tool index 0', () => {
    const { chunks, usage } = translate(streamToolUse);
    expect(contentOf(chunks)).toBe("Okay, let's check the weather for San Francisco, CA:");
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(toolDeltas[0]).toEqual({ index: 0, id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', type: 'function', function: { name: 'get_weather', arguments: '' } });
    // The empty partial_json is not sent on; every other piece is, in order, at index 0.
    expect(toolDeltas.slice(1)).toEqual(
      ['{"location":', ' "San', ' Francisc', 'o,', ' CA"', ', ', '"unit": "fah', 'renheit"}'].map((piece) => ({
        index: 0,
        function: { arguments: piece },
      })),
    );
    expect(JSON.parse(toolCallsOf(chunks)[0]?.arguments ?? '')).toEqual({ location: 'San Francisco, CA', unit: 'fahrenheit' });
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
    expect(usage).toEqual({ inputTokens: 472, outputTokens: 89, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });

  it('numbers parallel tool calls 0 and 1 whatever their content block index, and reads cache usage', () => {
    const { chunks, usage } = translate(streamTwoToolsCached);
    expect(contentOf(chunks)).toBe('Checking both.');
    expect(toolCallsOf(chunks)).toEqual([
      { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "Paris"}' },
      { id: 'toolu_01PqRj8VaC4LmN2sXe7kYt3W', name: 'get_time', arguments: '{"timezone": "Europe/Paris"}' },
    ]);
    expect(finishReasons(chunks)).toEqual(['tool_calls']);
    expect(usage).toEqual({ inputTokens: 12, outputTokens: 74, cacheReadTokens: 1200, cacheWriteTokens: 300, cacheWrite1hTokens: 0 });
  });

  it('leaves thinking out and reports no usage when the stream carried none', () => {
    const { chunks, usage } = translate(streamThinking);
    expect(contentOf(chunks)).toBe('27 * 453 = 12,231');
    expect(finishReasons(chunks)).toEqual(['stop']);
    expect(usage).toBeNull();
  });

  it('knows the input tokens from message_start before any message_delta', () => {
    const translator = anthropicChat.streamTranslator(context);
    expect(translator.usage()).toBeNull();
    const [start] = sseEvents(streamTwoToolsCached);
    translator.push(start ?? { data: '' });
    expect(translator.usage()).toEqual({ inputTokens: 12, outputTokens: 2, cacheReadTokens: 1200, cacheWriteTokens: 300, cacheWrite1hTokens: 0 });
  });

  it('throws the error event as an UpstreamStreamError with its message, after the text before it', () => {
    const translator = anthropicChat.streamTranslator(context);
    const events = sseEvents(streamError);
    const error = events.pop() ?? { data: '' };
    expect(contentOf(events.flatMap((event) => translator.push(event)))).toBe('Hello');
    expect(() => translator.push(error)).toThrow(UpstreamStreamError);
    expect(() => translator.push(error)).toThrow('Overloaded');
    expect(translator.usage()).toEqual({ inputTokens: 25, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, cacheWrite1hTokens: 0 });
  });

  it.each([
    { name: 'ping', event: { event: 'ping', data: '{"type": "ping"}' } },
    { name: 'an unknown event', event: { event: 'future_event', data: '{"type": "future_event"}' } },
    { name: 'a prototype member name', event: { event: 'constructor', data: '{}' } },
  ])('ignores $name', ({ event }) => {
    expect(anthropicChat.streamTranslator(context).push(event)).toEqual([]);
  });

  it('owes nothing at the end of a complete stream', () => {
    const translator = anthropicChat.streamTranslator(context);
    sseEvents(streamText).forEach((event) => translator.push(event));
    expect(translator.finish()).toEqual([]);
  });

  it('owes a stop when the message ended without a stop_reason', () => {
    const translator = anthropicChat.streamTranslator(context);
    translator.push({ event: 'message_start', data: '{"type":"message_start","message":{"id":"msg_x","usage":{"input_tokens":3}}}' });
    translator.push({ event: 'message_stop', data: '{"type":"message_stop"}' });
    expect(finishReasons(translator.finish())).toEqual(['stop']);
  });
});

describe('anthropicChat.errorMessage', () => {
  it.each([
    { name: 'the error body of the errors page', status: 404, body: errorNotFound, message: 'The requested resource could not be found.' },
    { name: 'an overloaded error', status: 529, body: errorOverloaded, message: 'Overloaded' },
    { name: 'an error body left as text', status: 429, body: JSON.stringify({ type: 'error', error: { type: 'rate_limit_error', message: 'Slow down' } }), message: 'Slow down' },
    { name: 'an HTML page', status: 502, body: '<html>Bad Gateway</html>', message: 'Anthropic answered with HTTP 502.' },
    { name: 'no body', status: 500, body: undefined, message: 'Anthropic answered with HTTP 500.' },
  ])('reads $name', ({ status, body, message }) => {
    expect(anthropicChat.errorMessage(status, body)).toBe(message);
  });
});
