import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import type { AccountOp } from '../../durable-objects/account/types';
import { createApp } from '../../src/app';
import { formatUsd } from '../../src/money';
import { accountStub, adminCredit, register } from './helpers';

/**
 * Issue #10's rule when the charge cannot be made durable anywhere: the account's Durable Object
 * takes every call but settlements, and the settlement journal cannot be reached. The answer the
 * upstream produced still reaches the client, whole (a stream ends cleanly), without a stated
 * cost, and nothing is charged.
 */
const chatUrl = inject('chatUpstreamUrl');
const app = createApp();

const failingEnv = {
  ...env,
  OPENAI_API_KEY: 'sk-unacknowledged',
  OPENAI_BASE_URL: `${chatUrl}/v1`,
  ACCOUNT: {
    idFromName: (name: string) => env.ACCOUNT.idFromName(name),
    get: (id: DurableObjectId) => ({
      apply: (ops: AccountOp[]) => (ops.some((op) => op.op === 'settle') ? Promise.reject(new Error('overloaded')) : env.ACCOUNT.get(id).apply(ops)),
    }),
  },
  SETTLEMENT_JOURNAL: {
    idFromName: (name: string) => env.SETTLEMENT_JOURNAL.idFromName(name),
    get: () => ({ record: () => Promise.reject(new Error('journal unreachable')) }),
  },
} as unknown as Env;

/**
 * The account's Durable Object takes every call but settlements; the settlement journal works.
 * One settlement policy for every billed route (issue 23, item 4): the journal takes the charge.
 */
const accountUnacknowledgedEnv = {
  ...env,
  WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host,
  ACCOUNT: failingEnv.ACCOUNT,
} as unknown as Env;

/** A funded agent's chat call through the app, its settlements acknowledged nowhere; the body read whole. */
async function chatUnacknowledged(stream: boolean) {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 20, stream, messages: [{ role: 'user', content: 'Hi' }] }),
    }),
    failingEnv,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text, stub: accountStub(agent.account_id) };
}

describe('a settlement that neither the account nor the journal acknowledges', () => {
  it('delivers the answer without a cost and charges nothing', async () => {
    const { res, text, stub } = await chatUnacknowledged(false);
    expect(res.status).toBe(200);
    expect((JSON.parse(text) as { choices: unknown[] }).choices).toHaveLength(1);
    expect(res.headers.get('x-service-cost')).toBeNull();
    expect(res.headers.get('x-service-credits-remaining')).toBeNull();
    expect(res.headers.get('x-service-request-id')).toMatch(/^req_/);
    // The hold stays until its lease runs out; nothing was charged.
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 });
    expect((await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge')).toEqual([]);
  });

  it('ends a stream whole, with its usage and without a cost, and charges nothing', async () => {
    const { res, text, stub } = await chatUnacknowledged(true);
    const frames = text.split('\n\n').filter(Boolean);
    expect(res.status).toBe(200);
    expect(frames.at(-1)).toBe('data: [DONE]');
    const final = JSON.parse(frames.at(-2)!.slice(6));
    expect(final).toMatchObject({ choices: [], usage: { completion_tokens: expect.any(Number) } });
    expect(final.x_service).toBeUndefined();
    expect(frames.some((frame) => frame.includes('"error"'))).toBe(false);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 });
    expect((await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge')).toEqual([]);
  });
});

describe('a scrape whose account does not acknowledge its settlement', () => {
  it('is charged through the settlement journal, once, and answered with its cost, as chat is', async () => {
    const agent = await register();
    expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request('https://gateway.test/v1/scrape', {
        method: 'POST',
        headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ url: `${inject('websiteUrl')}/article`, stealth: false }),
      }),
      accountUnacknowledgedEnv,
      ctx,
    );
    const body = (await res.json()) as { cost: number; tier: string };
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    expect(body.tier).toBe('standard');
    const cost = res.headers.get('x-service-cost');
    expect(Number(cost)).toBeGreaterThan(0);
    // The journal sends the charge on to the account (GATHER_MS later).
    const stub = accountStub(agent.account_id);
    const charged = async () => (await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge');
    for (let i = 0; i < 100 && (await charged()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const charges = await charged();
    expect(charges).toHaveLength(1);
    expect(formatUsd(-charges[0]!.amountMicros)).toBe(cost);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 + charges[0]!.amountMicros, heldMicros: 0 });
  });
});
