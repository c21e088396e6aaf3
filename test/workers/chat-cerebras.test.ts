import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { formatUsd } from '../../src/money';
import { CEREBRAS_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, register } from './helpers';

/**
 * Cerebras, the provider added as one folder and one registry line, through the public API against
 * its simulator (`test/upstreams/openai.ts` as Cerebras: usage on the finish chunk, `time_info`,
 * a 400 for the members it rejects). Only Cerebras is configured, so `openai/gpt-oss-120b` is
 * served by its Cerebras route, priced $0.35 in / $0.75 out per million tokens.
 */
const cerebrasUrl = inject('cerebrasUpstreamUrl');
const app = createApp();
const withCerebras = { ...env, CEREBRAS_API_KEY: CEREBRAS_UPSTREAM_KEY, CEREBRAS_BASE_URL: `${cerebrasUrl}/v1` } as Env;

interface Recorded {
  path: string;
  body?: { model?: string; stream_options?: { include_usage?: boolean }; messages?: { content?: unknown }[]; [member: string]: unknown };
}

async function chat(apiKey: string, body: Record<string, unknown>) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-oss-120b', max_tokens: 20, ...body }),
    }),
    withCerebras,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

/** What the simulator received of the request whose prompt holds `nonce`. */
async function received(nonce: string): Promise<Recorded | undefined> {
  const recorded = (await (await fetch(`${cerebrasUrl}/__recorded`)).json()) as Recorded[];
  return recorded.find((request) => JSON.stringify(request.body?.messages ?? []).includes(nonce));
}

/** Cerebras's published gpt-oss-120b price, in micro-dollars rounded half up: 0.35 per input token, 0.75 per output token. */
const expectedMicros = (usage: { prompt_tokens: number; completion_tokens: number }) =>
  Math.floor((usage.prompt_tokens * 350_000 + usage.completion_tokens * 750_000 + 500_000) / 1_000_000);

async function funded() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return agent;
}

describe('a chat on a Cerebras-routed model', () => {
  it.each([false, true])('reaches Cerebras at /v1/chat/completions with its key and is billed at its price (stream: %s)', async (stream) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const { res, text } = await chat(agent.api_key, { stream, messages: [{ role: 'user', content: `Hi ${nonce}` }] });
    expect(res.status, text).toBe(200);

    const sent = await received(nonce);
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.body?.model).toBe('gpt-oss-120b');
    if (stream) expect(sent?.body?.stream_options?.include_usage).toBe(true);

    const charges = (await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'charge');
    expect(charges).toHaveLength(1);
    const charged = -charges[0]!.amountMicros;
    let usage;
    if (stream) {
      const frames = text.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)));
      usage = frames.at(-1).usage;
      expect(frames.map((frame) => frame.choices?.[0]?.delta?.content ?? '').join('')).toBe('Hello from the simulator!');
      expect(text).toContain(`"cost_usd":"${formatUsd(charged)}"`);
    } else {
      const completion = JSON.parse(text);
      usage = completion.usage;
      expect(completion.time_info).toBeDefined();
      expect(res.headers.get('x-service-cost')).toBe(formatUsd(charged));
    }
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(charged).toBe(expectedMicros(usage));
    expect(await accountStub(agent.account_id).snapshot()).toMatchObject({ balanceMicros: 1_000_000 - charged, heldMicros: 0 });
  });

  it('announces the members Cerebras rejects instead of sending them', async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const { res, text } = await chat(agent.api_key, {
      messages: [{ role: 'user', content: `Hi ${nonce}` }],
      temperature: 0.2,
      frequency_penalty: 0.5,
      presence_penalty: 0.1,
      parallel_tool_calls: false,
    });
    expect(res.status, text).toBe(200);
    expect((res.headers.get('x-service-unsupported-params') ?? '').split(', ').sort()).toEqual(['frequency_penalty', 'parallel_tool_calls', 'presence_penalty']);
    const sent = await received(nonce);
    expect(sent?.body).toMatchObject({ temperature: 0.2 });
    expect(sent?.body).not.toHaveProperty('frequency_penalty');
    expect(sent?.body).not.toHaveProperty('presence_penalty');
  });

  it('refuses n above 1 with a 400 naming n, before anything is charged', async () => {
    const agent = await funded();
    const { res, text } = await chat(agent.api_key, { n: 2, messages: [{ role: 'user', content: 'Hi' }] });
    expect(res.status, text).toBe(400);
    expect(JSON.parse(text).error.param).toBe('n');
    expect((await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'charge')).toEqual([]);
  });
});
