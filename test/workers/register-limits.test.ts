import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { REGISTRATIONS_PER_IP_PER_DAY } from '../../src/routes/agent/agent.handlers';
import { spendPeriods } from '../../durable-objects/account/periods';
import { bearer, call, expectError, freshIp, json } from './helpers';

/**
 * Registration's free things as a farmer meets them: per-IP limits count an IPv6 /64 as one
 * address (one subscriber holds all 2^64 of it), and welcome credit has a budget per UTC day
 * across everyone (`WELCOME_CREDITS_DAILY_USD`).
 */

const app = createApp();

/** A /64 no other test uses: `2001:db8:<random>:<random>`. */
function freshSlash64(): string {
  const group = () => Math.floor(Math.random() * 0xffff).toString(16);
  return `2001:db8:${group()}:${group()}`;
}

interface Registered {
  api_key: string;
  welcome_credits_usd?: string;
}

async function registerFrom(ip: string, vars: Partial<Env>): Promise<Response> {
  return app.request('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': ip }), { ...env, ...vars } as Env);
}

async function balanceOf(apiKey: string): Promise<string> {
  const body = (await (await call('/agent/account', bearer(apiKey))).json()) as { balance_usd: string };
  return body.balance_usd;
}

/** Welcome credit granted today so far, in micro-dollars, as the budget's own row says. */
async function grantedToday(): Promise<number> {
  const day = spendPeriods(Date.now()).day.slice(2);
  const row = await env.DB.prepare('SELECT granted_micros FROM welcome_credit_days WHERE day = ?').bind(day).first<{ granted_micros: number }>();
  return row?.granted_micros ?? 0;
}

describe('per-IP registration limits over IPv6', () => {
  it(`gives 15 addresses of one /64 the limits of one address: ${REGISTRATIONS_PER_IP_PER_DAY} registrations and one welcome grant`, async () => {
    const net = freshSlash64();
    const answers: Response[] = [];
    // ::1 to ::15, written the ways clients and proxies write them.
    for (let i = 1; i <= 15; i++) {
      const host = i.toString(16);
      answers.push(await registerFrom(i % 2 ? `${net}::${host}` : `${net}:0:0:0:${host}`.toUpperCase(), { WELCOME_CREDITS_USD: '1' }));
    }
    expect(answers.map((res) => res.status)).toEqual([...Array<number>(REGISTRATIONS_PER_IP_PER_DAY).fill(201), ...Array<number>(15 - REGISTRATIONS_PER_IP_PER_DAY).fill(429)]);
    await expectError(answers[REGISTRATIONS_PER_IP_PER_DAY]!, 429, 'agent_register_rate_limited', 'rate_limit_error');
    expect(Number(answers[REGISTRATIONS_PER_IP_PER_DAY]!.headers.get('Retry-After'))).toBeGreaterThan(0);

    const created = (await Promise.all(answers.slice(0, REGISTRATIONS_PER_IP_PER_DAY).map((res) => res.json()))) as Registered[];
    expect(created.filter((body) => body.welcome_credits_usd !== undefined).map((body) => body.welcome_credits_usd)).toEqual(['1.000000']);
    const balances = await Promise.all(created.map((body) => balanceOf(body.api_key)));
    expect(balances.filter((balance) => balance !== '0.000000')).toEqual(['1.000000']);
  });

  it('does not let two /64s share an allowance, even side by side', async () => {
    const net = freshSlash64();
    const neighbour = net.replace(/:([0-9a-f]+)$/, (_, last: string) => `:${((parseInt(last, 16) + 1) % 0x10000).toString(16)}`);
    for (const ip of [`${net}::1`, `${neighbour}::1`]) {
      const res = await registerFrom(ip, { WELCOME_CREDITS_USD: '1' });
      expect(res.status).toBe(201);
      expect(((await res.json()) as Registered).welcome_credits_usd).toBe('1.000000');
    }
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address it carries', async () => {
    const ip = freshIp();
    const first = await registerFrom(ip, { WELCOME_CREDITS_USD: '1' });
    expect(((await first.json()) as Registered).welcome_credits_usd).toBe('1.000000');
    const mapped = await registerFrom(`::ffff:${ip}`, { WELCOME_CREDITS_USD: '1' });
    expect(mapped.status).toBe(201);
    expect(await mapped.json()).not.toHaveProperty('welcome_credits_usd');
  });
});

describe('the daily welcome budget (WELCOME_CREDITS_DAILY_USD)', () => {
  it('grants no more than the budget to 20 registrations at once from 20 networks, and still registers them all', async () => {
    // Today's budget leaves room for exactly 5 grants of 0.25, whatever earlier tests granted.
    const budgetMicros = (await grantedToday()) + 5 * 250_000;
    const vars = { WELCOME_CREDITS_USD: '0.25', WELCOME_CREDITS_DAILY_USD: (budgetMicros / 1e6).toFixed(6) };
    const answers = await Promise.all(Array.from({ length: 20 }, () => registerFrom(`${freshSlash64()}::1`, vars)));
    expect(answers.map((res) => res.status)).toEqual(Array<number>(20).fill(201));
    const bodies = (await Promise.all(answers.map((res) => res.json()))) as Registered[];
    expect(bodies.filter((body) => body.welcome_credits_usd === '0.250000')).toHaveLength(5);
    expect(bodies.filter((body) => body.welcome_credits_usd === undefined)).toHaveLength(15);
    const balances = await Promise.all(bodies.map((body) => balanceOf(body.api_key)));
    expect(balances.filter((balance) => balance === '0.250000')).toHaveLength(5);
    expect(balances.filter((balance) => balance === '0.000000')).toHaveLength(15);
    expect(await grantedToday()).toBe(budgetMicros);

    // Spent: the next registration still succeeds, without credit, and says nothing of any.
    const later = await registerFrom(`${freshSlash64()}::1`, vars);
    expect(later.status).toBe(201);
    const body = (await later.json()) as Registered & { instructions: string };
    expect(body).not.toHaveProperty('welcome_credits_usd');
    expect(await balanceOf(body.api_key)).toBe('0.000000');
  });

  it('does not spend the budget on an address whose own grant is used', async () => {
    const ip = `${freshSlash64()}::1`;
    const vars = { WELCOME_CREDITS_USD: '0.25' };
    expect(((await (await registerFrom(ip, vars)).json()) as Registered).welcome_credits_usd).toBe('0.250000');
    const before = await grantedToday();
    for (let i = 0; i < 3; i++) expect(await (await registerFrom(ip, vars)).json()).not.toHaveProperty('welcome_credits_usd');
    expect(await grantedToday()).toBe(before);
  });

  it('grants nothing when a single grant is larger than the whole budget', async () => {
    const res = await registerFrom(`${freshSlash64()}::1`, { WELCOME_CREDITS_USD: '5', WELCOME_CREDITS_DAILY_USD: '1' });
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty('welcome_credits_usd');
  });
});
