import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { formatUsd, parseUsd } from '../../src/money';
import { GEMINI_SIMULATOR_API_KEY } from '../upstreams/gemini';
import { ADMIN_TOKEN, adminCredit, bearer, register } from './helpers';

/**
 * D31 through the public API: each provider's cache reads, 5-minute and 1-hour cache writes and
 * reasoning tokens, read from its own usage fields (the simulators' `[reports-*=N]` tags), are
 * shown in the answer's `usage` (streamed and not) and in the request lookup, and priced each at
 * its own catalog price, rounded once.
 */
const app = createApp();
const gateway = {
  ...env,
  OPENAI_API_KEY: 'sk-itemized',
  OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1`,
  DEEPSEEK_API_KEY: 'sk-itemized',
  DEEPSEEK_BASE_URL: inject('deepseekUpstreamUrl'),
  ANTHROPIC_API_KEY: 'sk-ant-itemized',
  ANTHROPIC_BASE_URL: `${inject('anthropicUpstreamUrl')}/v1`,
  GEMINI_API_KEY: GEMINI_SIMULATOR_API_KEY,
  GEMINI_BASE_URL: `${inject('geminiUpstreamUrl')}/v1beta`,
} as Env;

/** Prices in USD per million tokens (= micro-dollars per token), as the catalog has them. */
interface Prices {
  input: number;
  output: number;
  read?: number;
  write5m?: number;
  write1h?: number;
}

interface Counts {
  uncached: number;
  read: number;
  write5m: number;
  write1h: number;
  /** All output, reasoning included. */
  output: number;
}

/** D31's formula, exact in units of 1e-4 micro-dollars, rounded half up once (D16). */
function expectedMicros(counts: Counts, prices: Prices): number {
  const units = (perMTok: number) => BigInt(Math.round(perMTok * 10_000));
  const write5m = prices.write5m ?? prices.input;
  const total =
    BigInt(counts.uncached) * units(prices.input) +
    BigInt(counts.read) * units(prices.read ?? prices.input) +
    BigInt(counts.write5m) * units(write5m) +
    BigInt(counts.write1h) * units(prices.write1h ?? write5m) +
    BigInt(counts.output) * units(prices.output);
  return Number((total * 2n + 10_000n) / 20_000n);
}

async function funded(usd = '1') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function send(path: string, init: RequestInit) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://gateway.test${path}`, init), gateway, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

async function chat(apiKey: string, body: Record<string, unknown>) {
  const { res, text } = await send('/v1/chat/completions', bearer(apiKey, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  expect(res.status, text).toBe(200);
  if (body.stream !== true) return { res, usage: JSON.parse(text).usage, costUsd: res.headers.get('x-service-cost') };
  const last = JSON.parse(text.split('\n').filter((line) => line.startsWith('data: {')).at(-1)!.slice(6));
  return { res, usage: last.usage, costUsd: last.x_service?.cost_usd as string | undefined };
}

async function balance(accountId: string): Promise<{ balance: number; loss: string }> {
  const res = await app.fetch(new Request(`https://gateway.test/admin/accounts/${accountId}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }), gateway, createExecutionContext());
  const body = (await res.json()) as { balance_usd: string; held_usd: string; loss_usd: string };
  expect(body.held_usd).toBe('0.000000');
  return { balance: parseUsd(body.balance_usd)!, loss: body.loss_usd };
}

/** The simulators answer five words; the tags add the counts on top. */
const WORDS = 5;
const TAGS = (read: number, write5m: number, write1h: number, reasoning: number) =>
  `Hi [reports-prompt-tokens=100][reports-cache-read=${read}][reports-cache-write=${write5m}][reports-cache-write-1h=${write1h}][reports-reasoning=${reasoning}]`;

const cases = [
  // OpenAI reports reads and reasoning; a compatible upstream's `cache_write_tokens` are read too (no write price: input).
  { provider: 'OpenAI', model: 'openai/gpt-4o-mini', prices: { input: 0.15, output: 0.6, read: 0.075 }, tags: [40, 30, 0, 7], shownReasoning: 7 },
  { provider: 'DeepSeek', model: 'deepseek/deepseek-v4-flash', prices: { input: 0.14, output: 0.28, read: 0.0028 }, tags: [40, 0, 0, 7], shownReasoning: 7 },
  // Anthropic splits writes by lifetime and counts thinking in output_tokens, with no count of its own.
  { provider: 'Anthropic', model: 'anthropic/claude-sonnet-4-5', prices: { input: 3, output: 15, read: 0.3, write5m: 3.75, write1h: 6 }, tags: [40, 20, 30, 7], shownReasoning: 0 },
  { provider: 'Gemini', model: 'google/gemini-2.5-flash-lite', prices: { input: 0.1, output: 0.4, read: 0.01 }, tags: [40, 0, 0, 7], shownReasoning: 7 },
] as const;

describe('itemized prompt-cache and reasoning usage (D31)', () => {
  describe.each(cases)('$provider', ({ model, prices, tags, shownReasoning }) => {
    const [read, write5m, write1h, reasoning] = tags;
    const counts: Counts = { uncached: 100, read, write5m, write1h, output: WORDS + reasoning };

    it.each([false, true])('shows cached, cache-write and reasoning tokens, charges each at its price, and the lookup stores them (stream: %s)', async (stream) => {
      const agent = await funded();
      const before = await balance(agent.account_id);
      const { res, usage, costUsd } = await chat(agent.api_key, { model, max_tokens: 50, stream, messages: [{ role: 'user', content: TAGS(read, write5m, write1h, reasoning) }] });

      const prompt = 100 + read + write5m + write1h;
      expect(usage).toEqual({
        prompt_tokens: prompt,
        completion_tokens: WORDS + reasoning,
        total_tokens: prompt + WORDS + reasoning,
        prompt_tokens_details: { cached_tokens: read, cache_write_tokens: write5m + write1h },
        completion_tokens_details: { reasoning_tokens: shownReasoning },
      });
      const micros = expectedMicros(counts, prices);
      expect(costUsd).toBe(formatUsd(micros));
      expect(before.balance - (await balance(agent.account_id)).balance).toBe(micros);

      const { res: found, text } = await send(`/v1/requests/${res.headers.get('x-service-request-id')}`, bearer(agent.api_key));
      expect(found.status, text).toBe(200);
      expect(JSON.parse(text).usage).toEqual({
        prompt_tokens: prompt,
        completion_tokens: WORDS + reasoning,
        cached_tokens: read,
        cache_write_tokens: write5m + write1h,
        cache_write_1h_tokens: write1h,
        reasoning_tokens: shownReasoning,
      });
    });
  });

  it('charges reads, 5-minute writes, 1-hour writes and output with thinking each at its price: the balance drops by the formula to the micro-dollar', async () => {
    const agent = await funded();
    const before = await balance(agent.account_id);
    const content = '[reports-prompt-tokens=1000][reports-cache-read=2000][reports-cache-write=3000][reports-cache-write-1h=4000][reports-reasoning=500] Hi';
    const { costUsd } = await chat(agent.api_key, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 4000, messages: [{ role: 'user', content }] });
    // 1,000 x $3 + 2,000 x $0.30 + 3,000 x $3.75 + 4,000 x $6 + 505 x $15 per million tokens.
    const micros = 3_000 + 600 + 11_250 + 24_000 + 7_575;
    expect(costUsd).toBe(formatUsd(micros));
    const after = await balance(agent.account_id);
    expect(before.balance - after.balance).toBe(micros);
    expect(after.loss).toBe('0.000000');
  });

  it.each([false, true])('holds every prompt token at the 1-hour write price: a prompt written whole for an hour is charged in full, with no loss (stream: %s)', async (stream) => {
    const agent = await funded();
    const before = await balance(agent.account_id);
    // Every prompt token, and no more than the prompt's bytes, reported as a 1-hour write.
    const content = `${'x'.repeat(4_000)} [reports-prompt-tokens=0][reports-cache-write-1h=4000]`;
    const { costUsd } = await chat(agent.api_key, { model: 'anthropic/claude-sonnet-4-5', max_tokens: 10, stream, messages: [{ role: 'user', content }] });
    // At the 5-minute price ($3.75) the hold was about 4,100 x 3.75 + 150 = $0.0155: short of $0.024075.
    const micros = 4_000 * 6 + WORDS * 15;
    expect(costUsd).toBe(formatUsd(micros));
    const after = await balance(agent.account_id);
    expect(before.balance - after.balance).toBe(micros);
    expect(after.loss).toBe('0.000000');
  });
});
