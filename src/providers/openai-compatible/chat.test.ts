import { describe, expect, it } from 'vitest';
import deepseekCompletion from '../../../test/fixtures/providers/deepseek/completion-cache.json';
import deepseekReasonerStream from '../../../test/fixtures/providers/deepseek/stream-reasoner';
import groqCompletion from '../../../test/fixtures/providers/groq/completion.json';
import groqNError from '../../../test/fixtures/providers/groq/error-n.json';
import groqStream from '../../../test/fixtures/providers/groq/stream-x-groq-usage';
import magistralCompletion from '../../../test/fixtures/providers/mistral/completion-magistral.json';
import mistralExtraForbidden from '../../../test/fixtures/providers/mistral/error-extra-forbidden.json';
import mistralStream from '../../../test/fixtures/providers/mistral/stream-text';
import openaiCachedCompletion from '../../../test/fixtures/providers/openai/completion-cached.json';
import openaiToolCompletion from '../../../test/fixtures/providers/openai/completion-tool-call.json';
import openaiInvalidKey from '../../../test/fixtures/providers/openai/error-invalid-api-key.json';
import openaiMaxTokens from '../../../test/fixtures/providers/openai/error-max-tokens.json';
import openaiStreamError from '../../../test/fixtures/providers/openai/stream-error';
import openaiTextStream from '../../../test/fixtures/providers/openai/stream-text';
import openaiToolStream from '../../../test/fixtures/providers/openai/stream-tool-call';
import togetherStream from '../../../test/fixtures/providers/together/stream-eos';
import { TOOL_TURN_CASES } from '../../../test/fixtures/providers/tool-call-turns';
import xaiReasoningCompletion from '../../../test/fixtures/providers/xai/completion-reasoning.json';
import xaiInvalidKey from '../../../test/fixtures/providers/xai/error-invalid-api-key.json';
import { UpstreamStreamError, type ChatAdapter, type ChatCompletionChunk, type ChatRequest, type SseEvent } from '../chat/types';
import { deepseekChat } from '../deepseek/chat';
import { fireworksChat } from '../fireworks/chat';
import { groqChat } from '../groq/chat';
import { mistralChat } from '../mistral/chat';
import { openaiChat } from '../openai/chat';
import { togetherChat } from '../together/chat';
import { xaiChat } from '../xai/chat';
import { openAICompatibleChat } from './chat';

const target = { baseUrl: 'https://upstream.test/v1', apiKey: 'sk-test', upstreamModel: 'upstream-model-1' };
const context = { model: 'maker/model', requestId: 'req123', created: 1_700_000_000 };
const noImages = () => Promise.reject(new Error('no image fetch expected'));

const baseRequest: ChatRequest = { model: 'maker/model', messages: [{ role: 'user', content: 'Hi' }] };

async function upstreamBody(adapter: ChatAdapter, request: ChatRequest): Promise<Record<string, unknown>> {
  const built = await adapter.buildRequest(request, target, noImages);
  return JSON.parse(built.body) as Record<string, unknown>;
}

/** Splits raw SSE text into events the way the gateway's reader does. */
function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim();
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      return event === undefined ? { data } : { event, data };
    });
}

function translate(adapter: ChatAdapter, sse: string) {
  const translator = adapter.streamTranslator(context);
  const chunks: ChatCompletionChunk[] = [];
  for (const event of sseEvents(sse)) chunks.push(...translator.push(event));
  chunks.push(...translator.finish());
  return { chunks, usage: translator.usage() };
}

const textOf = (chunks: ChatCompletionChunk[]) => chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');

describe('buildRequest', () => {
  it('posts to the base URL plus the path with a bearer key and JSON', async () => {
    const built = await openaiChat.buildRequest(baseRequest, { ...target, baseUrl: 'https://api.openai.com/v1' }, noImages);
    expect(built.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(built.headers).toEqual({ Authorization: 'Bearer sk-test', 'Content-Type': 'application/json' });
    expect((await groqChat.buildRequest(baseRequest, target, noImages)).url).toBe('https://upstream.test/v1/chat/completions');
  });

  it('replaces the model and passes unknown fields and multimodal parts through unchanged', async () => {
    const request: ChatRequest = {
      model: 'maker/model',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.png', detail: 'low' } },
            { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          ],
        },
      ],
      response_format: { type: 'json_object' },
      reasoning_effort: 'low',
      metadata: { trace: 'abc' },
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      tool_choice: 'auto',
    };
    const body = await upstreamBody(openaiChat, request);
    expect(body).toEqual({ ...request, model: 'upstream-model-1' });
  });

  it.each([
    ['stream_options is added when streaming', { stream: true }, { include_usage: true }],
    ['client stream_options members are kept', { stream: true, stream_options: { include_obfuscation: false } }, { include_obfuscation: false, include_usage: true }],
    ['stream_options is removed when not streaming', { stream: false, stream_options: { include_usage: true } }, undefined],
    ['nothing is added without stream', {}, undefined],
  ])('include_usage: %s', async (_name, extra, expected) => {
    const body = await upstreamBody(openaiChat, { ...baseRequest, ...extra });
    expect(body.stream_options).toEqual(expected);
  });

  it.each([
    ['max_tokens becomes max_completion_tokens', { max_tokens: 100 }, { max_completion_tokens: 100 }],
    ['max_completion_tokens stays', { max_completion_tokens: 50 }, { max_completion_tokens: 50 }],
    ['an explicit max_completion_tokens wins over max_tokens', { max_tokens: 100, max_completion_tokens: 50 }, { max_completion_tokens: 50 }],
  ])('OpenAI: %s', async (_name, extra, expected) => {
    const body = await upstreamBody(openaiChat, { ...baseRequest, ...extra });
    expect(body).toEqual({ ...baseRequest, model: 'upstream-model-1', ...expected });
  });

  it.each([groqChat, togetherChat, deepseekChat, xaiChat, mistralChat, fireworksChat])(
    'compatible providers take max_tokens (%#)',
    async (adapter) => {
      const body = await upstreamBody(adapter, { ...baseRequest, max_completion_tokens: 64 });
      expect(body.max_tokens).toBe(64);
      expect(body).not.toHaveProperty('max_completion_tokens');
    },
  );

  it('Mistral: seed becomes random_seed, and members it rejects are removed', async () => {
    const request: ChatRequest = {
      ...baseRequest,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi', name: 'alice' },
      ],
      stream: true,
      seed: 7,
      logprobs: true,
      top_logprobs: 2,
      logit_bias: { '50256': -100 },
      response_format: { type: 'json_object' },
    };
    const body = await upstreamBody(mistralChat, request);
    expect(body).toEqual({
      model: 'upstream-model-1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      stream: true,
      random_seed: 7,
      response_format: { type: 'json_object' },
    });
  });

  it('Groq: drops logprobs, top_logprobs, logit_bias and message names, keeps n and asks for usage', async () => {
    const request: ChatRequest = {
      ...baseRequest,
      messages: [{ role: 'user', content: 'Hi', name: 'alice' }],
      stream: true,
      n: 1,
      seed: 3,
      logprobs: true,
      top_logprobs: 2,
      logit_bias: { '1': 1 },
    };
    const body = await upstreamBody(groqChat, request);
    expect(body).toEqual({
      model: 'upstream-model-1',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      n: 1,
      seed: 3,
      stream_options: { include_usage: true },
    });
  });

  it('DeepSeek: drops n and the logprob members', async () => {
    const body = await upstreamBody(deepseekChat, { ...baseRequest, n: 1, logprobs: true, top_logprobs: 1, logit_bias: {}, seed: 1 });
    expect(body).toEqual({ ...baseRequest, model: 'upstream-model-1', seed: 1 });
  });

  it('Fireworks: streams without stream_options (usage comes on the last chunk)', async () => {
    const body = await upstreamBody(fireworksChat, { ...baseRequest, stream: true });
    expect(body).not.toHaveProperty('stream_options');
  });

  it.each([togetherChat, xaiChat, deepseekChat])('asks for streamed usage with include_usage (%#)', async (adapter) => {
    const body = await upstreamBody(adapter, { ...baseRequest, stream: true });
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it.each(TOOL_TURN_CASES)('passes a tool_calls turn whose content is $content (stream $stream) through unchanged', async ({ request, stream }) => {
    for (const adapter of [openaiChat, groqChat, togetherChat, deepseekChat, xaiChat, mistralChat, fireworksChat]) {
      const body = await upstreamBody(adapter, request);
      expect(body.messages).toEqual(request.messages);
      expect(body.stream).toBe(stream);
    }
  });

  it('a rename never overwrites a value the client set under the new name', async () => {
    const adapter = openAICompatibleChat({ path: '/x', rename: { seed: 'random_seed' } });
    const body = await upstreamBody(adapter, { ...baseRequest, seed: 1, random_seed: 2 });
    expect(body.random_seed).toBe(2);
    expect(body).not.toHaveProperty('seed');
  });
});

describe('parseResponse', () => {
  it('returns the upstream completion with the client model and every other member kept', () => {
    const { completion } = openaiChat.parseResponse(openaiCachedCompletion, context);
    expect(completion).toEqual({ ...openaiCachedCompletion, model: 'maker/model' });
  });

  it.each([
    ['OpenAI with cached tokens', openaiChat, openaiCachedCompletion, { inputTokens: 93, outputTokens: 46, cacheReadTokens: 1024, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['OpenAI tool call', openaiChat, openaiToolCompletion, { inputTokens: 82, outputTokens: 17, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['Groq with timing members', groqChat, groqCompletion, { inputTokens: 18, outputTokens: 556, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['DeepSeek cache hit and miss', deepseekChat, deepseekCompletion, { inputTokens: 10, outputTokens: 11, cacheReadTokens: 1280, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['xAI reasoning outside completion_tokens', xaiChat, xaiReasoningCompletion, { inputTokens: 12, outputTokens: 387, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 386 }],
  ])('usage: %s', (_name, adapter, body, expected) => {
    expect(adapter.parseResponse(body, context).usage).toEqual(expected);
  });

  it.each([
    ['prompt_tokens_details.cache_write_tokens (OpenRouter)', { prompt_tokens_details: { cached_tokens: 20, cache_write_tokens: 30 } }],
    ['cache_creation_input_tokens (Anthropic-style)', { prompt_tokens_details: { cached_tokens: 20 }, cache_creation_input_tokens: 30 }],
  ])('usage: cache writes a compatible upstream reports in %s are billed apart from uncached input', (_name, details) => {
    const body = { ...openaiToolCompletion, usage: { prompt_tokens: 100, completion_tokens: 9, completion_tokens_details: { reasoning_tokens: 4 }, ...details } };
    expect(openaiChat.parseResponse(body, context).usage).toEqual({ inputTokens: 50, outputTokens: 9, cacheReadTokens: 20, cacheWriteTokens: 30, reasoningTokens: 4 });
  });

  it('keeps tool calls and provider extras (Groq x_groq)', () => {
    expect(openaiChat.parseResponse(openaiToolCompletion, context).completion.choices[0]?.message.tool_calls).toEqual(
      openaiToolCompletion.choices[0]?.message.tool_calls,
    );
    expect(groqChat.parseResponse(groqCompletion, context).completion.x_groq).toEqual({ id: 'req_01jbd6g2qdfw2adyrt2az8hz4w' });
  });

  it('flattens Mistral Magistral content chunks into text, with the thinking as reasoning_content', () => {
    const { completion, usage } = mistralChat.parseResponse(magistralCompletion, context);
    expect(completion.choices[0]?.message).toEqual({
      role: 'assistant',
      tool_calls: null,
      content: '2 + 2 = 4.',
      reasoning_content: 'Two plus two is four.',
    });
    expect(usage).toEqual({ inputTokens: 12, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('usage is null when the upstream sent none, and missing id and created are filled in', () => {
    const { completion, usage } = togetherChat.parseResponse(
      { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'eos' }] },
      context,
    );
    expect(usage).toBeNull();
    expect(completion).toMatchObject({ id: 'chatcmpl-req123', created: 1_700_000_000, model: 'maker/model' });
    expect(completion.choices[0]?.finish_reason).toBe('stop');
  });

  it('a body that is not a chat completion is a provider error', () => {
    expect(() => openaiChat.parseResponse({ hello: 'world' }, context)).toThrow(/not a chat completion/);
  });
});

describe('streamTranslator', () => {
  it('passes text chunks through with the client model, swallows the include_usage frame and records its usage', () => {
    const { chunks, usage } = translate(openaiChat, openaiTextStream);
    expect(chunks).toHaveLength(5);
    expect(textOf(chunks)).toBe('Hello! How can I help?');
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ id: 'chatcmpl-BLAomA7bhgFHhL5vkqVK1sHqHhU3v', object: 'chat.completion.chunk', model: 'maker/model' });
      expect(chunk.choices).not.toHaveLength(0);
      expect(chunk).not.toHaveProperty('usage');
      expect(chunk.system_fingerprint).toBe('fp_38647f5e19');
    }
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
    expect(usage).toEqual({ inputTokens: 138, outputTokens: 7, cacheReadTokens: 1152, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it('passes tool-call argument deltas through so they concatenate to the arguments', () => {
    const { chunks, usage } = translate(openaiChat, openaiToolStream);
    const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    expect(deltas[0]).toEqual({ index: 0, id: 'call_DdmO9pD3xa9XTPNJ32zg2hcA', type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(deltas.map((delta) => delta.function?.arguments ?? '').join('')).toBe('{"location":"Paris, France"}');
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(usage).toEqual({ inputTokens: 56, outputTokens: 16, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
  });

  it.each([
    ['Groq x_groq.usage on the finish chunk', groqChat, groqStream, 'Hello!', { inputTokens: 45, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['Mistral usage on the finish chunk', mistralChat, mistralStream, 'Bonjour !', { inputTokens: 9, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['Together usage on the eos chunk', togetherChat, togetherStream, 'Hello there', { inputTokens: 40, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }],
    ['DeepSeek cache hit and miss in the usage frame', deepseekChat, deepseekReasonerStream, 'Hi there!', { inputTokens: 10, outputTokens: 9, cacheReadTokens: 64, cacheWriteTokens: 0, reasoningTokens: 5 }],
  ])('usage: %s', (_name, adapter, sse, text, expected) => {
    const { chunks, usage } = translate(adapter, sse);
    expect(textOf(chunks)).toBe(text);
    expect(usage).toEqual(expected);
    expect(chunks.every((chunk) => chunk.model === 'maker/model' && !('usage' in chunk))).toBe(true);
  });

  it('maps finish reasons outside OpenAI\'s set (Together "eos" is "stop")', () => {
    const { chunks } = translate(togetherChat, togetherStream);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('keeps DeepSeek reasoning_content deltas', () => {
    const { chunks } = translate(deepseekChat, deepseekReasonerStream);
    expect(chunks[1]?.choices[0]?.delta).toEqual({ content: null, reasoning_content: 'The user greets me.' });
  });

  it('throws UpstreamStreamError on an error data line, after the chunks before it', () => {
    const translator = openaiChat.streamTranslator(context);
    const events = sseEvents(openaiStreamError);
    expect(translator.push(events[0]!)).toHaveLength(1);
    expect(translator.push(events[1]!)).toHaveLength(1);
    expect(() => translator.push(events[2]!)).toThrow(UpstreamStreamError);
    expect(() => openaiChat.streamTranslator(context).push(events[2]!)).toThrow(
      'The server had an error while processing your request. Sorry about that!',
    );
  });

  it('throws on an `event: error` and on data that is not JSON', () => {
    const translator = xaiChat.streamTranslator(context);
    expect(() => translator.push({ event: 'error', data: 'overloaded' })).toThrow(new UpstreamStreamError('overloaded'));
    expect(() => translator.push({ data: '{"id": trunc' })).toThrow(UpstreamStreamError);
  });

  it('[DONE] yields nothing and usage stays null when none came', () => {
    const translator = openaiChat.streamTranslator(context);
    expect(translator.push({ data: '[DONE]' })).toEqual([]);
    expect(translator.finish()).toEqual([]);
    expect(translator.usage()).toBeNull();
  });

  it('fills in id, object and created when a chunk lacks them', () => {
    const [chunk] = mistralChat
      .streamTranslator(context)
      .push({ data: '{"id":"cmpl-1","model":"mistral-tiny","choices":[{"index":0,"delta":{"role":"assistant"},"finish_reason":null}]}' });
    expect(chunk).toEqual({
      id: 'cmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'maker/model',
      choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
    });
  });
});

describe('errorMessage', () => {
  it.each([
    ['OpenAI error object', openaiInvalidKey, openaiInvalidKey.error.message],
    ['OpenAI unsupported parameter', openaiMaxTokens, openaiMaxTokens.error.message],
    ['Groq n above 1', groqNError, "'n' : number must be at most 1"],
    ['xAI error string', xaiInvalidKey, xaiInvalidKey.error],
    ['Mistral validation detail', mistralExtraForbidden, 'body.max_completion_tokens: Extra inputs are not permitted'],
    ['Mistral plain message', { object: 'error', message: 'Invalid model: foo', type: 'invalid_model', param: null, code: '1500' }, 'Invalid model: foo'],
    ['plain text', 'upstream connect error', 'upstream connect error'],
  ])('%s', (_name, body, expected) => {
    expect(openaiChat.errorMessage(400, body)).toBe(expected);
  });

  it.each([[undefined], [''], ['<html><body>502 Bad Gateway</body></html>'], [{ unexpected: true }]])(
    'falls back to the status for %j',
    (body) => {
      expect(openaiChat.errorMessage(502, body)).toBe('The upstream answered HTTP 502.');
    },
  );
});
