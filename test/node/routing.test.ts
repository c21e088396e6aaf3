import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack';

/**
 * D34 as the official SDKs meet it, against the gateway under `wrangler dev`: a request with
 * `models` whose first provider fails before its first byte (402: its account ran dry; 500) is
 * served by the fallback model on another provider, the answer names what served, the request
 * lookup lists both attempts, and only the serving attempt is charged, at its own price.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

const GPT = 'openai/gpt-4o-mini';
const CLAUDE = 'anthropic/claude-haiku-4-5';
/** Catalog prices in hundredths of a micro-dollar per token (USD per million, times 100): input, output. */
const PRICE = { [GPT]: [15, 60], [CLAUDE]: [100, 500] } as const;
const micros = (usd: string | null | undefined) => Math.round(Number(usd) * 1e6);
/** D16: the exact cost of the tokens at the model's price, rounded half up once. */
const costOf = (model: keyof typeof PRICE, input: number, output: number) => Math.floor((input * PRICE[model][0] + output * PRICE[model][1] + 50) / 100);

interface Attempt {
  provider: string;
  model: string;
  status: number | null;
}

async function attempts(apiKey: string, requestId: string | null): Promise<{ model: string; provider: string; attempts: Attempt[] }> {
  const res = await fetch(`${stack.gateway.url}/v1/requests/${requestId}`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(res.status).toBe(200);
  const record = (await res.json()) as { model: string; provider: string; attempts: Attempt[] };
  return { ...record, attempts: record.attempts.map(({ provider, model, status }) => ({ provider, model, status })) };
}

describe('the openai SDK, Chat Completions with models', () => {
  it.each(['[fail-openai=402]', '[fail-openai]'])('%s: OpenAI fails, Claude Haiku serves, and only it is charged', async (tag) => {
    const account = await stack.fundedAccount('1');
    const client = new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const params: OpenAI.ChatCompletionCreateParamsNonStreaming & { models: string[] } = {
      model: GPT,
      models: [CLAUDE],
      max_tokens: 50,
      messages: [{ role: 'user', content: `${tag} hello` }],
    };
    const before = micros(await account.balance());
    const { data, response } = await client.chat.completions.create(params).withResponse();
    expect(response.headers.get('x-service-model')).toBe(CLAUDE);
    expect(response.headers.get('x-service-provider')).toBe('anthropic');
    expect(data.model).toBe(CLAUDE);
    const cost = costOf(CLAUDE, data.usage!.prompt_tokens, data.usage!.completion_tokens);
    expect(micros(response.headers.get('x-service-cost'))).toBe(cost);
    expect(before - micros(await account.balance())).toBe(cost);
    const record = await attempts(account.apiKey, response.headers.get('x-service-request-id'));
    expect(record).toMatchObject({ model: CLAUDE, provider: 'anthropic' });
    expect(record.attempts).toEqual([
      { provider: 'openai', model: GPT, status: tag.includes('402') ? 402 : 500 },
      { provider: 'anthropic', model: CLAUDE, status: 200 },
    ]);
  });

  it('streamed: the stream comes from the fallback, and its usage frame states the cost charged', async () => {
    const account = await stack.fundedAccount('1');
    const client = new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const params: OpenAI.ChatCompletionCreateParamsStreaming & { models: string[] } = {
      model: GPT,
      models: [CLAUDE],
      max_tokens: 50,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: '[fail-openai=402] hello' }],
    };
    const before = micros(await account.balance());
    const { data: stream, response } = await client.chat.completions.create(params).withResponse();
    expect(response.headers.get('x-service-provider')).toBe('anthropic');
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text.length).toBeGreaterThan(0);
    const cost = costOf(CLAUDE, usage!.prompt_tokens, usage!.completion_tokens);
    expect(before - micros(await account.balance())).toBe(cost);
  });
});

describe('the Anthropic SDK, Messages with models', () => {
  it.each([false, true])('stream %s: Anthropic out of credit (402), GPT-4o mini serves (translated), and only it is charged', async (streamed) => {
    const account = await stack.fundedAccount('1');
    const client = new Anthropic({ apiKey: account.apiKey, baseURL: stack.gateway.url, maxRetries: 0 });
    const params: Anthropic.MessageCreateParamsNonStreaming & { models: string[] } = {
      model: CLAUDE,
      models: [GPT],
      max_tokens: 50,
      messages: [{ role: 'user', content: '[fail-anthropic=402] hello' }],
    };
    const before = micros(await account.balance());
    let usage: { input_tokens: number; output_tokens: number };
    let headers: Headers;
    if (streamed) {
      const { data: stream, response } = await client.messages.create({ ...params, stream: true }).withResponse();
      headers = response.headers;
      let input = 0;
      let output = 0;
      for await (const event of stream) {
        if (event.type === 'message_start') input = event.message.usage.input_tokens;
        // A translated stream knows its prompt's count only at the end.
        if (event.type === 'message_delta') {
          output = event.usage.output_tokens;
          input = event.usage.input_tokens ?? input;
        }
      }
      usage = { input_tokens: input, output_tokens: output };
    } else {
      const { data, response } = await client.messages.create(params).withResponse();
      headers = response.headers;
      expect(data.model).toBe(GPT);
      usage = data.usage;
    }
    expect(headers.get('x-service-model')).toBe(GPT);
    expect(headers.get('x-service-provider')).toBe('openai');
    const cost = costOf(GPT, usage.input_tokens, usage.output_tokens);
    expect(before - micros(await account.balance())).toBe(cost);
    const record = await attempts(account.apiKey, headers.get('x-service-request-id'));
    expect(record.attempts).toEqual([
      { provider: 'anthropic', model: CLAUDE, status: 402 },
      { provider: 'openai', model: GPT, status: 200 },
    ]);
  });
});
