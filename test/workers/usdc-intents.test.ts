import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR, MAX_TAIL_MICROS, OPEN_INTENTS_PER_ACCOUNT } from '../../src/funding/intents';
import { bearer, expectError, freshIp, json, register } from './helpers';

/**
 * How USDC intents are handed out, against the local chain (anvil, from the global setup): no
 * account holds more than its share of open intents or asks more often than its hourly allowance,
 * and an amount's tails are too many for anyone to hold them all.
 */

const { rpcUrl, depositAddress } = inject('chain');
const app = createApp();
const withChain = { ...env, BASE_RPC_URL: rpcUrl, USDC_DEPOSIT_ADDRESS: depositAddress } as Env;

async function fund(apiKey: string, amountUsd: number): Promise<Response> {
  return app.request('/agent/fund', bearer(apiKey, json({ amount_usd: amountUsd })), withChain);
}

async function openIntents(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM funding_intents WHERE account_id = ? AND status = 'open'").bind(accountId).first<{ n: number }>();
  return row?.n ?? 0;
}

/** Pays nothing, frees the account's intents: as if each had run out its hour. */
async function expireAll(accountId: string): Promise<void> {
  await env.DB.prepare("UPDATE funding_intents SET status = 'expired' WHERE account_id = ? AND status = 'open'").bind(accountId).run();
}

describe('POST /agent/fund limits', { timeout: 30_000 }, () => {
  it(`opens at most ${OPEN_INTENTS_PER_ACCOUNT} intents per account; the next is 429 with Retry-After until the first expires`, async () => {
    const agent = await register();
    for (let i = 0; i < OPEN_INTENTS_PER_ACCOUNT; i++) expect((await fund(agent.api_key, 10 + i)).status).toBe(200);
    const refused = await fund(agent.api_key, 50);
    await expectError(refused, 429, 'rate_limit_exceeded', 'rate_limit_error');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(await openIntents(agent.account_id)).toBe(OPEN_INTENTS_PER_ACCOUNT);

    // Another account is not affected; once this one's intents are gone it may ask again.
    expect((await fund((await register()).api_key, 50)).status).toBe(200);
    await expireAll(agent.account_id);
    expect((await fund(agent.api_key, 50)).status).toBe(200);
  });

  it(`never leaves more than ${OPEN_INTENTS_PER_ACCOUNT} open when 20 requests of one account race`, async () => {
    const agent = await register();
    const answers = await Promise.all(Array.from({ length: 20 }, () => fund(agent.api_key, 25)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(OPEN_INTENTS_PER_ACCOUNT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20 - OPEN_INTENTS_PER_ACCOUNT);
    for (const res of answers.filter((answer) => answer.status === 429)) expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await openIntents(agent.account_id)).toBe(OPEN_INTENTS_PER_ACCOUNT);
  });

  it(`answers at most ${FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR} requests per account per hour, then 429 with Retry-After to the hour's end`, async () => {
    const agent = await register();
    for (let i = 0; i < FUNDING_REQUESTS_PER_ACCOUNT_PER_HOUR; i++) {
      expect((await fund(agent.api_key, 5)).status).toBe(200);
      await expireAll(agent.account_id);
    }
    const refused = await fund(agent.api_key, 5);
    const { error } = await expectError(refused, 429, 'rate_limit_exceeded', 'rate_limit_error');
    expect(error.message).toContain('per hour');
    const retryAfter = Number(refused.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    expect(await openIntents(agent.account_id)).toBe(0);
  });
});

describe('the fund page USDC form', { timeout: 30_000 }, () => {
  it(`shows the ${OPEN_INTENTS_PER_ACCOUNT}-intent cap as an inline 429, as the API does`, async () => {
    const agent = await register();
    for (let i = 0; i < OPEN_INTENTS_PER_ACCOUNT; i++) expect((await fund(agent.api_key, 30 + i)).status).toBe(200);
    const path = new URL(agent.fund_url).pathname;
    const page = await app.request(`https://gateway.test${path}`, {}, withChain);
    const csrf = /name="csrf" value="([A-Za-z0-9]+)"/.exec(await page.text())?.[1];
    const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('csrf='));
    const res = await app.request(
      `https://gateway.test${path}/usdc`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie!, Origin: 'https://gateway.test', 'Sec-Fetch-Site': 'same-origin', 'CF-Connecting-IP': freshIp() },
        body: new URLSearchParams({ amount_usd: '10', csrf: csrf! }).toString(),
      },
      withChain,
    );
    expect(res.status).toBe(429);
    expect(await res.text()).toContain(`already has ${OPEN_INTENTS_PER_ACCOUNT} open USDC intents`);
    expect(await openIntents(agent.account_id)).toBe(OPEN_INTENTS_PER_ACCOUNT);
  });
});

describe('USDC intent amounts', { timeout: 30_000 }, () => {
  it(`add a tail of 1 to ${MAX_TAIL_MICROS} micro-USDC, under a dollar`, async () => {
    const agent = await register();
    const tails: number[] = [];
    for (let i = 0; i < OPEN_INTENTS_PER_ACCOUNT; i++) {
      const body = (await (await fund(agent.api_key, 7)).json()) as { amount_usdc: string; amount_usd: number };
      expect(body.amount_usd).toBe(7);
      expect(body.amount_usdc).toMatch(/^7\.\d{6}$/);
      tails.push(Number(body.amount_usdc.slice(2)));
    }
    expect(Math.min(...tails)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...tails)).toBeLessThanOrEqual(MAX_TAIL_MICROS);
    // Ten draws all under a cent would mean the old 9,999-tail space (odds of 1e-20 otherwise).
    expect(Math.max(...tails)).toBeGreaterThan(9_999);
    expect(new Set(tails).size).toBe(tails.length);
  });

  it('still serves an amount whose every sub-cent tail is held open by others', async () => {
    // The attack on the old scheme: hold all 9,999 tails of $4,321 (about 12,000 calls an hour).
    const now = Date.now();
    await env.DB.prepare(
      `WITH RECURSIVE tail(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM tail WHERE n < 9999)
       INSERT INTO funding_intents (id, account_id, amount_usd, amount_micros, status, created_at, expires_at, deposit_id)
       SELECT 'pi_squat' || n, 'squatter', 4321, 4321000000 + n, 'open', ?1, ?2, NULL FROM tail WHERE true`,
    )
      .bind(now, now + 3_600_000)
      .run();
    try {
      const agent = await register();
      const res = await fund(agent.api_key, 4321);
      expect(res.status).toBe(200);
      const { amount_usdc } = (await res.json()) as { amount_usdc: string };
      expect(Number(amount_usdc.split('.')[1])).toBeGreaterThan(9_999);
    } finally {
      await env.DB.prepare("DELETE FROM funding_intents WHERE account_id = 'squatter'").run();
    }
  });
});
