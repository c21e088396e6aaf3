import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from './stack';

/**
 * Route health (issue 39) as the openai and Anthropic SDKs meet it under `wrangler dev`, each in its
 * own format: a provider that hangs
 * costs the first request its timeout before the fallback serves; once the route's breaker is
 * open, the next request goes straight to the fallback, without calling it.
 */
const TIMEOUT_MS = 1500;
let stack: Stack;
beforeAll(async () => {
  // One failure opens the breaker, for longer than the test.
  stack = await startStack({ UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS), ROUTE_BREAKER_FAILURES: '1', ROUTE_BREAKER_COOLDOWN_MS: '60000' });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

/** A call through an SDK: what served it (header and model) and how long it took. */
type Timed = () => Promise<{ ms: number; provider: string | null; model: string }>;

/** The first call pays the hanging route's timeout; the second skips it (never calling OpenAI) and is served by the fallback at once. */
async function skippedOnceOpen(timed: Timed) {
  const first = await timed();
  expect(first).toMatchObject({ provider: 'anthropic', model: 'anthropic/claude-haiku-4-5' });
  expect(first.ms).toBeGreaterThanOrEqual(TIMEOUT_MS);
  const openaiCalls = stack.upstreams.openai.requests.length;
  const second = await timed();
  expect(second).toMatchObject({ provider: 'anthropic', model: 'anthropic/claude-haiku-4-5' });
  expect(second.ms).toBeLessThan(TIMEOUT_MS / 2);
  expect(stack.upstreams.openai.requests.length).toBe(openaiCalls);
}

describe('a hanging route behind an open breaker', () => {
  it('the first request pays the timeout; the next skips the route and is served by the fallback at once', async () => {
    const account = await stack.fundedAccount('1');
    const client = new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    const params: OpenAI.ChatCompletionCreateParamsNonStreaming & { models: string[] } = {
      model: 'openai/gpt-4o-mini',
      models: ['anthropic/claude-haiku-4-5'],
      max_tokens: 20,
      messages: [{ role: 'user', content: '[fail-openai=hang] hello' }],
    };
    await skippedOnceOpen(async () => {
      const started = performance.now();
      const { data, response } = await client.chat.completions.create(params).withResponse();
      return { ms: performance.now() - started, provider: response.headers.get('x-service-provider'), model: data.model };
    });
  });

  it('the same in Messages with the Anthropic SDK: once open, Claude (passed through) serves at once', async () => {
    const account = await stack.fundedAccount('1');
    const client = new Anthropic({ apiKey: account.apiKey, baseURL: stack.gateway.url, maxRetries: 0 });
    const params: Anthropic.MessageCreateParamsNonStreaming & { models: string[] } = {
      // Its own route: the first test's breaker is open on GPT-4o mini's.
      model: 'openai/gpt-4.1-mini',
      models: ['anthropic/claude-haiku-4-5'],
      max_tokens: 20,
      messages: [{ role: 'user', content: '[fail-openai=hang] hello' }],
    };
    await skippedOnceOpen(async () => {
      const started = performance.now();
      const { data, response } = await client.messages.create(params).withResponse();
      return { ms: performance.now() - started, provider: response.headers.get('x-service-provider'), model: data.model };
    });
  });
});

describe("an upstream's Retry-After, then the probe", () => {
  it('a 429 with Retry-After: 1 skips the route for 1 s (not the 60 s cool-down); then one probe is served by it and closes the breaker', async () => {
    const account = await stack.fundedAccount('1');
    const client = new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 });
    // Its own route: the tests above opened GPT-4o mini's and GPT-4.1 mini's.
    const ask = async (tag = '') => {
      const params: OpenAI.ChatCompletionCreateParamsNonStreaming & { models: string[] } = {
        model: 'openai/gpt-4.1',
        models: ['anthropic/claude-haiku-4-5'],
        max_tokens: 20,
        messages: [{ role: 'user', content: `${tag} hello` }],
      };
      const before = stack.upstreams.openai.requests.length;
      const { response } = await client.chat.completions.create(params).withResponse();
      return { provider: response.headers.get('x-service-provider'), calledOpenAI: stack.upstreams.openai.requests.length > before };
    };
    expect(await ask('[fail-openai=429] [retry-after=1]')).toEqual({ provider: 'anthropic', calledOpenAI: true });
    // Open for the upstream's second, not the configured minute.
    expect(await ask()).toEqual({ provider: 'anthropic', calledOpenAI: false });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    // Half-open: this request probes the route, OpenAI serves it, and the breaker closes.
    expect(await ask()).toEqual({ provider: 'openai', calledOpenAI: true });
    expect(await ask()).toEqual({ provider: 'openai', calledOpenAI: true });
  });
});
