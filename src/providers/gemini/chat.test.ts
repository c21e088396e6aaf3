import { usageOf } from './response';
import type { GeminiUsageMetadata } from './wire';
import { describe, expect, it, vi } from 'vitest';
import { GatewayError } from '../../errors';
import error400 from '../../../test/fixtures/providers/gemini/error-400.json';
import error429 from '../../../test/fixtures/providers/gemini/error-429.json';
import functionCallAnswer from '../../../test/fixtures/providers/gemini/function-call.json';
import maxTokensThinking from '../../../test/fixtures/providers/gemini/max-tokens-thinking.json';
import maxTokens from '../../../test/fixtures/providers/gemini/max-tokens.json';
import promptBlocked from '../../../test/fixtures/providers/gemini/prompt-blocked.json';
import safety from '../../../test/fixtures/providers/gemini/safety.json';
import streamBlocked from '../../../test/fixtures/providers/gemini/stream-blocked';
import streamError from '../../../test/fixtures/providers/gemini/stream-error';
import streamText from '../../../test/fixtures/providers/gemini/stream-text';
import streamToolCalls from '../../../test/fixtures/providers/gemini/stream-tool-calls';
import textThoughtsCached from '../../../test/fixtures/providers/gemini/text-thoughts-cached.json';
import text from '../../../test/fixtures/providers/gemini/text.json';
import { TOOL_TURN_CASES } from '../../../test/fixtures/providers/tool-call-turns';
import type { ChatCompletionChunk, ChatRequest, ImageFetcher, SseEvent, Usage } from '../chat/types';
import { UpstreamStreamError } from '../chat/types';
import { geminiChat } from './chat';
import { FOREIGN_CALL_SIGNATURE, signatureOf, toolCallId } from './tool-ids';

const target = { baseUrl: 'https://generativelanguage.googleapis.com/v1beta', apiKey: 'AIza-test-key', upstreamModel: 'gemini-2.5-flash' };
const context = { model: 'google/gemini-2.5-flash', requestId: 'req_0123', created: 1_750_000_000 };
const noImages: ImageFetcher = () => Promise.reject(new Error('no image fetch expected'));

const SIGNATURE = functionCallAnswer.candidates[0]!.content.parts[0]!.thoughtSignature;
const SIGNED_ID = /^call_[A-Za-z0-9]{8}_ts_[A-Za-z0-9_-]+$/;
const PLAIN_ID = /^call_[A-Za-z0-9]{8}$/;
const WEATHER_TOOL = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Current weather for a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

/** A chat request without the model, which the adapter does not read. */
type RequestBody = Partial<ChatRequest> & Pick<ChatRequest, 'messages'>;

async function bodyOf(request: RequestBody, fetchImage: ImageFetcher = noImages): Promise<Record<string, unknown>> {
  const upstream = await geminiChat.buildRequest({ model: 'google/gemini-2.5-flash', ...request }, target, fetchImage);
  return JSON.parse(upstream.body) as Record<string, unknown>;
}

/** Splits raw SSE text into events as a spec-following reader does (CRLF or LF line ends). */
function sseEvents(raw: string): SseEvent[] {
  return raw
    .split(/\r\n\r\n|\n\n/)
    .filter((block) => block.trim())
    .map((block) => ({
      data: block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n'),
    }));
}

function runStream(raw: string): { chunks: ChatCompletionChunk[]; usage: Usage | null } {
  const translator = geminiChat.streamTranslator(context);
  const chunks = sseEvents(raw).flatMap((event) => translator.push(event));
  chunks.push(...translator.finish());
  return { chunks, usage: translator.usage() };
}

const contentOf = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
const finishOf = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.finish_reason).filter(Boolean);

describe('geminiChat.buildRequest', () => {
  it.each([
    [false, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent'],
    [true, 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse'],
  ])('with stream %s posts to %s with the key in x-goog-api-key', async (stream, url) => {
    const upstream = await geminiChat.buildRequest({ model: 'google/gemini-2.5-flash', stream, messages: [{ role: 'user', content: 'Hi' }] }, target, noImages);
    expect(upstream.url).toBe(url);
    expect(upstream.headers).toEqual({ 'x-goog-api-key': 'AIza-test-key', 'content-type': 'application/json' });
  });

  it.each<[string, RequestBody, Record<string, unknown>]>([
    [
      'system and developer messages become systemInstruction; assistant turns are role model',
      {
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'developer', content: [{ type: 'text', text: 'Answer in French.' }] },
          { role: 'user', content: 'Capital of Italy?' },
          { role: 'assistant', content: 'Rome.' },
          { role: 'user', content: 'And Spain?' },
        ],
      },
      {
        systemInstruction: { parts: [{ text: 'You are terse.\n\nAnswer in French.' }] },
        contents: [
          { role: 'user', parts: [{ text: 'Capital of Italy?' }] },
          { role: 'model', parts: [{ text: 'Rome.' }] },
          { role: 'user', parts: [{ text: 'And Spain?' }] },
        ],
      },
    ],
    [
      'consecutive messages of one role merge into one content',
      {
        messages: [
          { role: 'user', content: 'First.' },
          { role: 'user', content: [{ type: 'text', text: 'Second.' }] },
          { role: 'assistant', content: 'One.' },
          { role: 'assistant', content: 'Two.' },
          { role: 'user', content: 'Third.' },
        ],
      },
      {
        contents: [
          { role: 'user', parts: [{ text: 'First.' }, { text: 'Second.' }] },
          { role: 'model', parts: [{ text: 'One.' }, { text: 'Two.' }] },
          { role: 'user', parts: [{ text: 'Third.' }] },
        ],
      },
    ],
    [
      'sampling parameters map to generationConfig and a single stop becomes a list',
      { messages: [{ role: 'user', content: 'Hi' }], temperature: 1.5, top_p: 0.9, max_tokens: 256, stop: 'END' },
      {
        contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
        generationConfig: { temperature: 1.5, topP: 0.9, maxOutputTokens: 256, stopSequences: ['END'] },
      },
    ],
    [
      'max_completion_tokens stands in for max_tokens; stop lists pass through',
      { messages: [{ role: 'user', content: 'Hi' }], max_completion_tokens: 64, stop: ['a', 'b'] },
      { contents: [{ role: 'user', parts: [{ text: 'Hi' }] }], generationConfig: { maxOutputTokens: 64, stopSequences: ['a', 'b'] } },
    ],
    [
      'tools become functionDeclarations with no tool_choice left to Gemini',
      { messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER_TOOL] },
      {
        contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }],
        tools: [
          {
            functionDeclarations: [
              {
                name: 'get_weather',
                description: 'Current weather for a city.',
                parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
              },
            ],
          },
        ],
      },
    ],
  ])('%s', async (_name, request, expected) => {
    expect(await bodyOf(request)).toEqual(expected);
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
    [{ type: 'function', function: { name: 'get_weather' } }, { mode: 'ANY', allowedFunctionNames: ['get_weather'] }],
  ])('tool_choice %j becomes functionCallingConfig %j', async (toolChoice, config) => {
    const body = await bodyOf({ messages: [{ role: 'user', content: 'Weather?' }], tools: [WEATHER_TOOL], tool_choice: toolChoice });
    expect(body.toolConfig).toEqual({ functionCallingConfig: config });
  });

  it('rejects a tool_choice it cannot express', async () => {
    await expect(bodyOf({ messages: [{ role: 'user', content: 'x' }], tools: [WEATHER_TOOL], tool_choice: 'sometimes' })).rejects.toMatchObject({
      code: 'invalid_request',
      options: { param: 'tool_choice' },
    });
  });

  it('strips JSON Schema members Gemini rejects and rewrites the idioms it can express', async () => {
    const parameters = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      strict: true,
      $defs: { Unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.' } },
      properties: {
        city: { type: 'string', minLength: 1, format: 'hostname' },
        unit: { $ref: '#/$defs/Unit' },
        days: { type: ['integer', 'null'], exclusiveMinimum: 0, format: 'int32' },
        when: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }], description: 'Start time.' },
        tags: { type: 'array', items: { type: 'string', const: 'x', additionalProperties: false } },
        extra: { type: 'object', properties: { a: { type: 'number' } }, additionalProperties: { type: 'string' }, patternProperties: {} },
      },
      required: ['city', 'ghost'],
    };
    const body = await bodyOf({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'forecast', parameters, strict: true } }],
    });
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'forecast',
            parameters: {
              type: 'object',
              properties: {
                city: { type: 'string', minLength: 1 },
                unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Temperature unit.' },
                days: { type: 'integer', nullable: true, format: 'int32' },
                when: { type: 'string', format: 'date-time', nullable: true, description: 'Start time.' },
                tags: { type: 'array', items: { type: 'string', enum: ['x'] } },
                extra: { type: 'object', properties: { a: { type: 'number' } } },
              },
              required: ['city'],
            },
          },
        ],
      },
    ]);
  });

  it('leaves out parameters for a function that takes none (Gemini refuses an empty object)', async () => {
    const body = await bodyOf({
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }],
    });
    expect(body.tools).toEqual([{ functionDeclarations: [{ name: 'now' }] }]);
  });

  it('sends a tool round trip back with the thought signature restored on the functionCall part', async () => {
    const id = toolCallId(SIGNATURE);
    const body = await bodyOf({
      messages: [
        { role: 'user', content: 'Weather in Paris and Tokyo?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: toolCallId(), type: 'function', function: { name: 'get_time', arguments: '' } },
          ],
        },
        { role: 'tool', tool_call_id: id, content: '{"temperature": 21, "sky": "clear"}' },
        { role: 'tool', tool_call_id: 'call_unknown', name: 'get_time', content: '14:05' },
      ],
      tools: [WEATHER_TOOL],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Tokyo?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: SIGNATURE },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temperature: 21, sky: 'clear' } } },
          { functionResponse: { name: 'get_time', response: { content: '14:05' } } },
        ],
      },
    ]);
  });

  it('round-trips the signature of a parsed functionCall answer into the next request', async () => {
    const { completion } = geminiChat.parseResponse(functionCallAnswer, context);
    const calls = completion.choices[0]!.message.tool_calls!;
    const body = await bodyOf({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: null, tool_calls: calls },
        { role: 'tool', tool_call_id: calls[0]!.id, content: 'sunny' },
      ],
    });
    expect(body.contents).toMatchObject([
      {},
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris', unit: 'celsius' } }, thoughtSignature: SIGNATURE }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: 'sunny' } } }] },
    ]);
  });

  it("puts Google's placeholder signature on a model turn whose calls Gemini did not make", async () => {
    const body = await bodyOf({
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'toolu_01A', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'toolu_01A', content: '[1, 2]' },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather?' }] },
      { role: 'model', parts: [{ text: 'Let me look.' }, { functionCall: { name: 'get_weather', args: { city: 'Oslo' } }, thoughtSignature: FOREIGN_CALL_SIGNATURE }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { content: '[1, 2]' } } }] },
    ]);
  });

  it.each(TOOL_TURN_CASES)('sends a tool_calls turn whose content is $content (stream $stream) as functionCall parts and no empty text', async ({ request, stream, said }) => {
    const upstream = await geminiChat.buildRequest(request, target, noImages);
    expect(upstream.url).toMatch(stream ? /:streamGenerateContent\?alt=sse$/ : /:generateContent$/);
    expect((JSON.parse(upstream.body) as Record<string, unknown>).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [...(said ? [{ text: said }] : []), { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: FOREIGN_CALL_SIGNATURE }],
      },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temperature: 18 } } }] },
    ]);
  });

  it.each([
    ['a tool message whose call is unknown', [{ role: 'tool' as const, tool_call_id: 'call_nope', content: 'x' }], 'messages.0.tool_call_id'],
    [
      'tool call arguments that are not a JSON object',
      [{ role: 'assistant' as const, content: null, tool_calls: [{ id: 'call_1', type: 'function' as const, function: { name: 'f', arguments: '[1]' } }] }],
      'messages.0.tool_calls.0.function.arguments',
    ],
    [
      'an image data URI that is not base64',
      [{ role: 'user' as const, content: [{ type: 'image_url' as const, image_url: { url: 'data:image/svg+xml,<svg/>' } }] }],
      'messages.0.content.0.image_url.url',
    ],
  ])('answers 400 for %s', async (_name, messages, param) => {
    const attempt = bodyOf({ messages });
    await expect(attempt).rejects.toBeInstanceOf(GatewayError);
    await expect(attempt).rejects.toMatchObject({ status: 400, options: { param } });
  });

  it('sends a data URI image inline', async () => {
    const body = await bodyOf({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==', detail: 'high' } },
          ],
        },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is this?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' } }] },
    ]);
  });

  it('fetches an https image with the injected fetcher and sends it inline', async () => {
    const fetchImage = vi.fn<ImageFetcher>(async () => ({ mimeType: 'image/jpeg', base64: '/9j/4AAQSkZJRg==' }));
    const body = await bodyOf(
      { messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } }] }] },
      fetchImage,
    );
    expect(fetchImage).toHaveBeenCalledWith('https://example.com/cat.jpg');
    expect(body.contents).toEqual([{ role: 'user', parts: [{ inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQSkZJRg==' } }] }]);
  });

  it('sends a PDF file part inline as application/pdf', async () => {
    const body = await bodyOf({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
            { type: 'text', text: 'Summarise.' },
          ],
        },
      ],
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ inlineData: { mimeType: 'application/pdf', data: 'JVBERi0xLjQK' } }, { text: 'Summarise.' }] },
    ]);
  });
});

describe('tool call ids', () => {
  it('carry a thought signature in the URL alphabet and give it back byte for byte', () => {
    const id = toolCallId(SIGNATURE);
    expect(id).toMatch(SIGNED_ID);
    expect(signatureOf(id)).toBe(SIGNATURE);
  });

  it('are call_ and 8 random base62 characters without a signature', () => {
    const ids = new Set(Array.from({ length: 50 }, () => toolCallId()));
    for (const id of ids) expect(id).toMatch(PLAIN_ID);
    expect(ids.size).toBe(50);
    expect(signatureOf('call_abcdefgh')).toBeUndefined();
    expect(signatureOf('toolu_01A_ts_abc')).toBeUndefined();
  });
});

describe('geminiChat.parseResponse', () => {
  it.each<[string, unknown, string | null, string, Usage | null]>([
    ['a text answer; thinking tokens count as output', text, 'The capital of France is Paris.', 'stop', { inputTokens: 14, outputTokens: 39, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 32 }],
    [
      'thought parts are not content; cached prompt tokens are billed apart',
      textThoughtsCached,
      'Use a hash map: it gives O(1) average lookups.',
      'stop',
      { inputTokens: 214, outputTokens: 201, cacheReadTokens: 4096, cacheWriteTokens: 0, reasoningTokens: 189 },
    ],
    ['MAX_TOKENS', maxTokens, 'Once upon a time, in a valley', 'length', { inputTokens: 9, outputTokens: 8, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['MAX_TOKENS spent on thinking, with no parts', maxTokensThinking, '', 'length', { inputTokens: 11, outputTokens: 99, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 99 }],
    ['a candidate stopped for SAFETY', safety, '', 'content_filter', { inputTokens: 21, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['a prompt blocked with no candidates', promptBlocked, '', 'content_filter', { inputTokens: 638, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
  ])('%s', (_name, body, content, finish, usage) => {
    const result = geminiChat.parseResponse(body, context);
    expect(result.completion).toMatchObject({ id: 'chatcmpl-req_0123', object: 'chat.completion', created: 1_750_000_000, model: 'google/gemini-2.5-flash' });
    expect(result.completion.choices).toEqual([{ index: 0, message: { role: 'assistant', content }, finish_reason: finish, logprobs: null }]);
    expect(result.usage).toEqual(usage);
  });

  it('reports usage on the wire with cached and reasoning details', () => {
    expect(geminiChat.parseResponse(textThoughtsCached, context).completion.usage).toEqual({
      prompt_tokens: 4310,
      completion_tokens: 201,
      total_tokens: 4511,
      prompt_tokens_details: { cached_tokens: 4096, cache_write_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 189 },
    });
  });

  it('turns a functionCall into tool_calls and finishes tool_calls although Gemini said STOP', () => {
    const { completion, usage } = geminiChat.parseResponse(functionCallAnswer, context);
    const choice = completion.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toEqual([
      { id: expect.stringMatching(SIGNED_ID), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"celsius"}' } },
    ]);
    expect(signatureOf(choice.message.tool_calls![0]!.id)).toBe(SIGNATURE);
    expect(usage).toEqual({ inputTokens: 81, outputTokens: 97, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 75 });
  });

  it('has no usage when Gemini sent none', () => {
    expect(geminiChat.parseResponse({ candidates: [{ content: { parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] }, context).usage).toBeNull();
  });
});

describe('geminiChat.streamTranslator', () => {
  it('streams text deltas, opens with the assistant role and keeps the last cumulative usage', () => {
    const { chunks, usage } = runStream(streamText);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: 'The capital of France' });
    expect(chunks.slice(1).every((c) => c.choices[0]!.delta.role === undefined)).toBe(true);
    expect(contentOf(chunks)).toBe('The capital of France is Paris, known for the Eiffel Tower.');
    expect(finishOf(chunks)).toEqual(['stop']);
    expect(chunks.at(-1)).toEqual({
      id: 'chatcmpl-req_0123',
      object: 'chat.completion.chunk',
      created: 1_750_000_000,
      model: 'google/gemini-2.5-flash',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop', logprobs: null }],
    });
    expect(usage).toEqual({ inputTokens: 8, outputTokens: 47, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 33 });
  });

  it('gives each function call its own index across frames and finishes tool_calls', () => {
    const { chunks, usage } = runStream(streamToolCalls);
    const deltas = chunks.flatMap((c) => c.choices[0]!.delta.tool_calls ?? []);
    expect(deltas).toEqual([
      { index: 0, id: expect.stringMatching(SIGNED_ID), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      { index: 1, id: expect.stringMatching(PLAIN_ID), type: 'function', function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' } },
    ]);
    expect(signatureOf(deltas[0]!.id!)).toMatch(/^CnYBMT9D.*==$/);
    expect(contentOf(chunks)).toBe('Checking both cities.');
    expect(finishOf(chunks)).toEqual(['tool_calls']);
    expect(usage).toEqual({ inputTokens: 96, outputTokens: 138, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 114 });
  });

  it('opens a tool-call-only answer with content null, as OpenAI does', () => {
    const translator = geminiChat.streamTranslator(context);
    const [first] = translator.push({ data: JSON.stringify({ candidates: [{ content: { parts: [{ functionCall: { name: 'f', args: {} } }] } }] }) });
    expect(first!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: null, tool_calls: [{ index: 0 }] });
  });

  it('throws UpstreamStreamError at an error frame', () => {
    const translator = geminiChat.streamTranslator(context);
    const [first, second] = sseEvents(streamError);
    expect(contentOf(translator.push(first!))).toBe('Here is the first');
    expect(() => translator.push(second!)).toThrow(UpstreamStreamError);
    expect(() => translator.push(second!)).toThrow('The model is overloaded. Please try again later.');
  });

  it('finishes content_filter when the prompt is blocked', () => {
    const { chunks, usage } = runStream(streamBlocked);
    expect(contentOf(chunks)).toBe('');
    expect(finishOf(chunks)).toEqual(['content_filter']);
    expect(usage).toEqual({ inputTokens: 638, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('reports a stream cut before its finishReason as an error', () => {
    const translator = geminiChat.streamTranslator(context);
    translator.push(sseEvents(streamText)[0]!);
    expect(() => translator.finish()).toThrow(UpstreamStreamError);
  });

  it('has no usage before any frame carried usageMetadata', () => {
    expect(geminiChat.streamTranslator(context).usage()).toBeNull();
  });
});

describe('geminiChat.errorMessage', () => {
  it.each([
    [400, error400, '* GenerateContentRequest.contents: contents is not specified\n'],
    [429, error429, error429.error.message],
    [500, { error: { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' } }, 'Internal error encountered.'],
    [502, '<html>Bad Gateway</html>', 'Gemini answered HTTP 502.'],
    [503, { error: {} }, 'Gemini answered HTTP 503.'],
  ])('HTTP %i gives a readable message', (status, body, message) => {
    expect(geminiChat.errorMessage(status, body)).toBe(message);
  });
});

describe('usageOf', () => {
  it('bills only numeric counts: a string is none, never concatenated into a larger number', () => {
    const metadata = { promptTokenCount: 20, cachedContentTokenCount: 5, candidatesTokenCount: '50', thoughtsTokenCount: 7 } as unknown as GeminiUsageMetadata;
    expect(usageOf(metadata)).toEqual({ inputTokens: 15, outputTokens: 7, cacheReadTokens: 5, cacheWriteTokens: 0, reasoningTokens: 7 });
    expect(usageOf({ promptTokenCount: 20, candidatesTokenCount: 50 })).toEqual({ inputTokens: 20, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });
});
