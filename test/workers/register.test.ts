import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { REGISTRATIONS_PER_IP_PER_DAY } from '../../src/routes/agent/agent.handlers';
import { bearer, call, expectError, freshIp, json, register } from './helpers';

describe('POST /agent/register', () => {
  it('creates an account with every field of the spec', async () => {
    const before = Date.now();
    const res = await call('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': freshIp() }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(body.account_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.api_key).toMatch(/^ak-[A-Za-z0-9]{45}$/);
    expect(body.claim_token).toMatch(/^act_[A-Za-z0-9]+$/);
    // D22: a capability link whose token reveals nothing of the account.
    expect(body.fund_url).toMatch(/^https:\/\/gateway\.test\/fund\/[A-Za-z0-9]{32}$/);
    expect(body.fund_url).not.toContain(body.account_id);
    expect(body.fund_url).not.toContain(body.account_id!.replaceAll('-', ''));
    const expires = Date.parse(body.expires_unless_funded_at!);
    expect(expires - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(expires - before).toBeLessThan(30 * 86_400_000 + 60_000);
    expect(body.instructions).toContain('/agent/account');
    expect(body.instructions).toContain(body.fund_url);
    expect(body).not.toHaveProperty('welcome_credits_usd');
  });

  it('issues a key that reads its account, with the balance at 6 fraction digits', async () => {
    const account = await register();
    const res = await call('/agent/account', bearer(account.api_key));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      account_id: account.account_id,
      balance_usd: '0.000000',
      held_usd: '0.000000',
      claimed: false,
      fund_url: account.fund_url,
      expires_unless_funded_at: account.expires_unless_funded_at,
      unclaimed_funding_remaining_usd: '500.000000',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('gives every account its own key and claim token', async () => {
    const [a, b] = await Promise.all([register(), register()]);
    expect(a.api_key).not.toBe(b.api_key);
    expect(a.claim_token).not.toBe(b.claim_token);
    expect(a.account_id).not.toBe(b.account_id);
  });

  it('refuses another registration type with 400 registration_type_not_supported (D4)', async () => {
    const res = await call('/agent/register', json({ type: 'organization' }, { 'CF-Connecting-IP': freshIp() }));
    await expectError(res, 400, 'registration_type_not_supported', 'invalid_request_error', 'type');
  });

  it(`allows ${REGISTRATIONS_PER_IP_PER_DAY} registrations per IP per day, then 429 with Retry-After`, async () => {
    const ip = freshIp();
    const attempts = await Promise.all(
      Array.from({ length: REGISTRATIONS_PER_IP_PER_DAY + 2 }, () =>
        call('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': ip })),
      ),
    );
    const statuses = attempts.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(REGISTRATIONS_PER_IP_PER_DAY);
    const limited = attempts.filter((res) => res.status === 429);
    expect(limited).toHaveLength(2);
    const retryAfter = Number(limited[0]!.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    await expectError(limited[0]!, 429, 'agent_register_rate_limited', 'rate_limit_error');
    // Another address is not affected.
    await register();
  });

  it('grants the welcome credit once per IP per day when WELCOME_CREDITS_USD is set', async () => {
    const app = createApp();
    const withWelcome = { ...env, WELCOME_CREDITS_USD: '0.25' };
    const ip = freshIp();
    const registerHere = async () => {
      const res = await app.request('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': ip }), withWelcome);
      expect(res.status).toBe(201);
      return (await res.json()) as { api_key: string; welcome_credits_usd?: string };
    };
    const first = await registerHere();
    expect(first.welcome_credits_usd).toBe('0.250000');
    const account = await (await call('/agent/account', bearer(first.api_key))).json();
    expect(account).toMatchObject({ balance_usd: '0.250000' });

    const second = await registerHere();
    expect(second).not.toHaveProperty('welcome_credits_usd');
    expect(await (await call('/agent/account', bearer(second.api_key))).json()).toMatchObject({ balance_usd: '0.000000' });
  });

  it('keeps a welcome-only account expiring: welcome credit is not funding', async () => {
    const app = createApp();
    const res = await app.request('/agent/register', json({ type: 'anonymous' }, { 'CF-Connecting-IP': freshIp() }), {
      ...env,
      WELCOME_CREDITS_USD: '1',
    });
    const { api_key } = (await res.json()) as { api_key: string };
    const account = (await (await call('/agent/account', bearer(api_key))).json()) as Record<string, unknown>;
    expect(account.balance_usd).toBe('1.000000');
    expect(account.expires_unless_funded_at).not.toBeNull();
  });
});
