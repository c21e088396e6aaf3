import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { formatUsd } from '../../src/money';
import { accountStub, adminCredit, register } from './helpers';

/**
 * An OpenAI-compatible upstream that reports a token count that is not whole (the simulator's
 * `[fractional-usage]`). The answer is still delivered and charged exactly, as whole tokens, and
 * its hold is settled: not a 500 after the work was done, with the hold left to its lease.
 */
const chatUrl = inject('chatUpstreamUrl');
const app = createApp();
const withUpstream = { ...env, OPENAI_API_KEY: 'sk-odd-usage', OPENAI_BASE_URL: `${chatUrl}/v1` } as Env;

async function chat(apiKey: string, stream: boolean) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 20, stream, messages: [{ role: 'user', content: '[fractional-usage] Hi' }] }),
    }),
    withUpstream,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

describe('an upstream that reports a fractional token count', () => {
  it.each([false, true])('is charged in whole tokens and settles its hold (stream: %s)', async (stream) => {
    const agent = await register();
    expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
    const { res, text } = await chat(agent.api_key, stream);
    expect(res.status, text).toBe(200);

    const stub = accountStub(agent.account_id);
    const charges = (await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge');
    expect(charges).toHaveLength(1);
    const charged = -charges[0]!.amountMicros;
    expect(Number.isInteger(charged) && charged > 0).toBe(true);
    if (stream) {
      const usage = JSON.parse(text.split('\n').filter((line) => line.startsWith('data: {')).at(-1)!.slice(6)).usage;
      expect(Number.isInteger(usage.prompt_tokens)).toBe(true);
      expect(text).toContain(`"cost_usd":"${formatUsd(charged)}"`);
    } else {
      expect(Number.isInteger(JSON.parse(text).usage.prompt_tokens)).toBe(true);
      expect(res.headers.get('x-service-cost')).toBe(formatUsd(charged));
    }
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - charged, heldMicros: 0 });
  });
});
