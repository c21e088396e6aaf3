import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { FUNDING_SESSIONS_PER_IP_PER_DAY } from '../../src/pages/fund/handlers';
import { bearer, call, expectError, freshIp, json, register } from './helpers';

/**
 * The funding rails' refusals as an agent and a payer meet them, inside workerd: `/agent/fund`
 * without a chain endpoint or with one that does not answer, and the fund page's per-IP limit on
 * starting payments (D3).
 */

const app = createApp();

function withEnv(overrides: Partial<Env>) {
  return (path: string, init: RequestInit) => app.fetch(new Request(`https://gateway.test${path}`, init), { ...env, ...overrides } as Env);
}

describe('POST /agent/fund when the USDC rail cannot serve', () => {
  it('answers 502 funding_unavailable without a chain endpoint', async () => {
    const agent = await register();
    await expectError(await call('/agent/fund', bearer(agent.api_key, json({ amount_usd: 10 }))), 502, 'funding_unavailable', 'api_error');
  });

  it('answers 502 funding_unavailable when the chain endpoint does not answer, and opens no intent', async () => {
    const agent = await register();
    const unreachable = withEnv({ BASE_RPC_URL: 'http://127.0.0.1:9/', USDC_DEPOSIT_ADDRESS: '0x000000000000000000000000000000000000dEaD' });
    await expectError(await unreachable('/agent/fund', bearer(agent.api_key, json({ amount_usd: 10 }))), 502, 'funding_unavailable', 'api_error');
    const open = await env.DB.prepare('SELECT COUNT(*) AS n FROM funding_intents WHERE account_id = ?').bind(agent.account_id).first<{ n: number }>();
    expect(open?.n).toBe(0);
  });
});

describe('the fund page', () => {
  const group = () => Math.floor(Math.random() * 0xffff).toString(16);
  it.each([
    ['one IPv4 address', () => {
      const ip = freshIp();
      return () => ip;
    }],
    ['the addresses of one IPv6 /64', () => {
      const net = `2001:db8:${group()}:${group()}`;
      let host = 0;
      return () => `${net}::${(++host).toString(16)}`;
    }],
  ])(`lets %s start at most ${FUNDING_SESSIONS_PER_IP_PER_DAY} payments a day, then answers 429 in the form`, async (_, addresses) => {
    const agent = await register();
    // The USDC rail configured, its endpoint down: the form is there, and every attempt is refused.
    const gateway = withEnv({ BASE_RPC_URL: 'http://127.0.0.1:9/', USDC_DEPOSIT_ADDRESS: '0x000000000000000000000000000000000000dEaD' });
    const path = new URL(agent.fund_url).pathname;
    const page = await gateway(path, {});
    expect(page.status).toBe(200);
    const html = await page.text();
    const csrf = /name="csrf" value="([A-Za-z0-9]+)"/.exec(html)?.[1];
    const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('csrf='));
    expect(csrf && cookie).toBeTruthy();
    const nextIp = addresses();
    const post = () =>
      gateway(`${path}/usdc`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie!, Origin: 'https://gateway.test', 'Sec-Fetch-Site': 'same-origin', 'CF-Connecting-IP': nextIp() },
        body: new URLSearchParams({ amount_usd: '10', csrf: csrf! }).toString(),
      });
    // The chain endpoint does not answer: every attempt is refused inline (502), but each one counts.
    for (let i = 0; i < FUNDING_SESSIONS_PER_IP_PER_DAY; i++) expect((await post()).status).toBe(502);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(await limited.text()).toContain('Too many payments');
  });
});

describe('a 402 insufficient_credits says how to pay (D23 error.funding)', () => {
  const openai = { OPENAI_API_KEY: 'sk-never-called', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  const chatBody = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };
  interface Refusal {
    error: { code: string; funding: { fund_url: string | null; usdc: unknown; x402: boolean; available_usd: string; required_usd: string } };
  }

  it('names the fund link, no USDC rail when none is set up, no x402, and what the request needs', async () => {
    const agent = await register();
    const res = await withEnv(openai)('/v1/chat/completions', bearer(agent.api_key, json(chatBody)));
    expect(res.status).toBe(402);
    const { error } = (await res.json()) as Refusal;
    expect(error.code).toBe('insufficient_credits');
    expect(error.funding).toEqual({ fund_url: agent.fund_url, usdc: null, x402: false, available_usd: '0.000000', required_usd: expect.stringMatching(/^0\.\d{6}$/) });
    expect(Number(error.funding.required_usd)).toBeGreaterThan(0);
  });

  it('names the USDC contract and the funding endpoint when the rail is set up', async () => {
    const agent = await register();
    const rail = { ...openai, BASE_RPC_URL: 'http://127.0.0.1:9/', USDC_DEPOSIT_ADDRESS: '0x000000000000000000000000000000000000dEaD' };
    const res = await withEnv(rail)('/v1/chat/completions', bearer(agent.api_key, json(chatBody)));
    const { error } = (await res.json()) as Refusal;
    expect(error.funding).toMatchObject({ fund_url: agent.fund_url, usdc: { network: 'base', contract: env.USDC_CONTRACT, fund_endpoint: 'https://gateway.test/agent/fund' } });
  });

  it('rides on the free upload route too, which needs only a positive balance', async () => {
    const agent = await register();
    const res = await call('/v1/uploads', bearer(agent.api_key, json({ content_type: 'image/png', content_length: 100 })));
    expect(res.status).toBe(402);
    const { error } = (await res.json()) as Refusal;
    expect(error.funding).toMatchObject({ fund_url: agent.fund_url, available_usd: '0.000000', required_usd: '0.000001' });
  });
});
