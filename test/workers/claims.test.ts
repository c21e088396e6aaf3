import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db';
import { claimById } from '../../src/db/claims';
import { accountOfClaimToken, approveClaim, pollClaim } from '../../src/human/claims';
import { createApp } from '../../src/app';
import { accountStub, bearer, call, expectError, freshIp, json, register } from './helpers';
import { ageClaim, agentWithClaim, claimInit, claimPoll, pageErrorCode, Visitor, visitorPastCode } from './claim-helpers';

/**
 * The agent's side of a claim (spec "Agent claim", D4, D13, D18): every state and error of
 * `POST /agent/claim/init` and `POST /agent/claim/poll`, the wrong-code limits of the
 * verification page, and the account once claimed. Approval here calls the module function the
 * passkey step calls; the browser test does the real ceremony.
 */

const wrongCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('POST /agent/claim/init', () => {
  it('answers a 6-digit code, the claim page with and without it, 900 seconds and interval 5', async () => {
    const { init, claimId } = await agentWithClaim();
    expect(init.user_code).toMatch(/^\d{6}$/);
    expect(claimId).toMatch(/^clm_[A-Za-z0-9]{20}$/);
    expect(init.verification_uri).toBe(`https://gateway.test/claim/${claimId}`);
    expect(init.verification_uri_complete).toBe(`${init.verification_uri}?code=${init.user_code}`);
    expect(init.expires_in).toBe(900);
    expect(init.interval).toBe(5);
    const row = await claimById(database(env), claimId);
    // Only the hash of the code is stored.
    expect(row).toMatchObject({ status: 'pending', email: null, intervalSeconds: 5, wrongAttempts: 0 });
    expect(JSON.stringify(row)).not.toContain(init.user_code);
  });

  it('binds the claim to an email, which the page then asks a code of', async () => {
    const { init, claimId, path } = await agentWithClaim('Owner@Example.com');
    expect((await claimById(database(env), claimId))?.email).toBe('owner@example.com');
    const visitor = await visitorPastCode(path, init.user_code);
    const { html } = await visitor.get(path);
    expect(html).toContain('Code from the email');
    expect(html).toContain('ow•••@example.com');
  });

  it('refuses to bind an email on a public gateway that has no mail sender (a code must never go to a log there)', async () => {
    const agent = await register();
    const publicGateway = { ...env, PUBLIC_BASE_URL: 'https://gateway.example.com' } as Env;
    const res = await createApp().fetch(new Request('https://gateway.example.com/agent/claim/init', json({ claim_token: agent.claim_token, email: 'owner@example.com' })), publicGateway);
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'email');
    // Without an email the claim goes ahead.
    const plain = await createApp().fetch(new Request('https://gateway.example.com/agent/claim/init', json({ claim_token: agent.claim_token })), publicGateway);
    expect(plain.status).toBe(200);
  });

  it('refuses an email that is not one', async () => {
    const agent = await register();
    await expectError(await claimInit({ claim_token: agent.claim_token, email: 'not-an-email' }), 400, 'invalid_request', 'invalid_request_error', 'email');
  });

  it('gives a new code on a second init; the first code and link stop working', async () => {
    const first = await agentWithClaim();
    const res = await claimInit({ claim_token: first.agent.claim_token });
    const second = (await res.json()) as { user_code: string; verification_uri: string };
    expect(second.verification_uri).not.toBe(first.init.verification_uri);

    const visitor = new Visitor();
    const page = await visitor.get(first.path);
    expect(page.res.status).toBe(410);
    expect(page.html).toContain('newer code');
    expect((await claimById(database(env), first.claimId))?.status).toBe('superseded');
    // The new one works.
    await visitorPastCode(new URL(second.verification_uri).pathname, second.user_code);
  });

  it('refuses a claimed account: it cannot be claimed again', async () => {
    const { agent, claimId } = await agentWithClaim();
    expect(await approveClaim(env, claimId, Date.now())).toBe(true);
    const body = await expectError(await claimInit({ claim_token: agent.claim_token }), 400, 'invalid_request', 'invalid_request_error');
    expect(body.error.message).toMatch(/already been claimed/);
  });
});

describe('unknown, wrong and malformed claim tokens', () => {
  const cases: [string, () => Promise<string>][] = [
    ['a well-formed token of no account', async () => `act_${'A'.repeat(22)}${'b'.repeat(32)}`],
    ['a real account with a wrong secret', async () => (await register()).claim_token.slice(0, 26) + 'x'.repeat(32)],
    ['a malformed token', async () => 'act_nonsense'],
    ['an API key instead', async () => (await register()).api_key],
  ];
  it.each(cases)('answers 401 invalid_claim_token to init and poll for %s', async (_, token) => {
    const claimToken = await token();
    await expectError(await claimInit({ claim_token: claimToken }), 401, 'invalid_claim_token', 'authentication_error');
    await expectError(await claimPoll(claimToken), 401, 'invalid_claim_token', 'authentication_error');
  });

  it('answers 400 naming claim_token when it is missing or too short', async () => {
    await expectError(await claimInit({}), 400, 'invalid_request', 'invalid_request_error', 'claim_token');
    await expectError(await claimPoll('act_'), 400, 'invalid_request', 'invalid_request_error', 'claim_token');
  });
});

describe('POST /agent/claim/poll', () => {
  it('answers authorization_pending while the human has not finished', async () => {
    const { agent } = await agentWithClaim();
    await expectError(await claimPoll(agent.claim_token), 400, 'authorization_pending', 'invalid_request_error');
  });

  it('answers slow_down to a poll sooner than the interval, growing it by 5 seconds each time (D13, D18)', async () => {
    const { agent } = await agentWithClaim();
    await expectError(await claimPoll(agent.claim_token), 400, 'authorization_pending', 'invalid_request_error');
    const first = await expectError(await claimPoll(agent.claim_token), 400, 'slow_down', 'invalid_request_error');
    expect((first as { interval?: number }).interval).toBe(10);
    const second = await expectError(await claimPoll(agent.claim_token), 400, 'slow_down', 'invalid_request_error');
    expect((second as { interval?: number }).interval).toBe(15);
    // Waiting the new interval is enough (time given to the module, as the clock would be then).
    const account = (await accountOfClaimToken(env, agent.claim_token))!;
    expect(await pollClaim(env, account, Date.now() + 14_000)).toEqual({ state: 'slow_down', intervalSeconds: 20 });
    expect(await pollClaim(env, account, Date.now() + 14_000 + 20_000)).toEqual({ state: 'pending', intervalSeconds: 20 });
  });

  it('answers expired_token after 900 seconds, telling the agent to init again', async () => {
    const { agent, claimId } = await agentWithClaim();
    const account = (await accountOfClaimToken(env, agent.claim_token))!;
    expect(await pollClaim(env, account, Date.now() + 899_000)).toEqual({ state: 'pending', intervalSeconds: 5 });
    expect(await pollClaim(env, account, Date.now() + 900_000)).toEqual({ state: 'expired', why: 'expired' });
    await ageClaim(claimId);
    const body = await expectError(await claimPoll(agent.claim_token), 400, 'expired_token', 'invalid_request_error');
    expect(body.error.message).toMatch(/expired.*\/agent\/claim\/init/);
    // A new init starts over.
    await claimInit({ claim_token: agent.claim_token });
    await expectError(await claimPoll(agent.claim_token), 400, 'authorization_pending', 'invalid_request_error');
  });

  it('answers expired_token when no claim was started', async () => {
    const agent = await register();
    await expectError(await claimPoll(agent.claim_token), 400, 'expired_token', 'invalid_request_error');
  });

  it('answers 200 claimed with the dashboard once approved; the key works unchanged and the account never expires', async () => {
    const { agent, claimId } = await agentWithClaim();
    const before = await (await call('/agent/account', bearer(agent.api_key))).json();
    expect(before).toMatchObject({ claimed: false, unclaimed_funding_remaining_usd: '500.000000', expires_unless_funded_at: expect.any(String) });

    expect(await approveClaim(env, claimId, Date.now())).toBe(true);
    const res = await claimPoll(agent.claim_token);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'claimed', dashboard_url: 'https://gateway.test/dashboard' });
    // Polling again keeps answering claimed.
    expect((await claimPoll(agent.claim_token)).status).toBe(200);

    const after = await call('/agent/account', bearer(agent.api_key));
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ claimed: true, unclaimed_funding_remaining_usd: null, expires_unless_funded_at: null });
    const indexed = await env.DB.prepare('SELECT claimed_at, expires_at FROM accounts WHERE id = ?').bind(agent.account_id).first();
    expect(indexed).toEqual({ claimed_at: expect.any(Number), expires_at: null });
    expect(await accountStub(agent.account_id).deleteIfExpired(Date.now() + 365 * 86_400_000)).toMatchObject({ deleted: false, claimedAt: expect.any(Number) });
    expect(await approveClaim(env, claimId, Date.now())).toBe(false);
  });
});

describe('wrong codes on the verification page (D4)', () => {
  it('locks the claim after 5 wrong codes: 429 claim_attempts_exceeded with Retry-After, and the agent must init again', async () => {
    const { agent, init, path } = await agentWithClaim();
    const visitor = new Visitor();
    await visitor.get(path);
    for (let left = 4; left >= 1; left--) {
      const { res, html } = await visitor.post(path, { code: wrongCode(init.user_code) });
      expect(res.status).toBe(400);
      expect(html).toContain(`${left} more ${left === 1 ? 'try' : 'tries'}`);
    }
    const fifth = await visitor.post(path, { code: wrongCode(init.user_code) });
    expect(fifth.res.status).toBe(429);
    expect(pageErrorCode(fifth.html)).toBe('claim_attempts_exceeded');
    expect(Number(fifth.res.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Even the right code is refused now, and the page shows the lock to anyone.
    const right = await visitor.post(path, { code: init.user_code });
    expect(right.res.status).toBe(429);
    const fresh = await new Visitor().get(path);
    expect(fresh.res.status).toBe(429);
    expect(pageErrorCode(fresh.html)).toBe('claim_attempts_exceeded');
    const body = await expectError(await claimPoll(agent.claim_token), 400, 'expired_token', 'invalid_request_error');
    expect(body.error.message).toMatch(/too many wrong attempts/);
  });

  it('refuses an IP its 10th wrong code in an hour, across claims, with Retry-After to the end of the hour', async () => {
    const ip = freshIp();
    const visitor = new Visitor(ip);
    const claims = await Promise.all([agentWithClaim(), agentWithClaim(), agentWithClaim()]);
    const statuses: number[] = [];
    for (const [index, count] of [4, 4, 2].entries()) {
      const { path, init } = claims[index]!;
      await visitor.get(path);
      for (let i = 0; i < count; i++) statuses.push((await visitor.post(path, { code: wrongCode(init.user_code) })).res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 400, 400, 400, 400, 429]);
    const third = claims[2]!;
    const refused = await visitor.post(third.path, { code: third.init.user_code });
    expect(refused.res.status).toBe(429);
    expect(pageErrorCode(refused.html)).toBe('claim_attempts_exceeded');
    const retryAfter = Number(refused.res.headers.get('Retry-After'));
    const secondsToHourEnd = Math.ceil((3_600_000 - (Date.now() % 3_600_000)) / 1000);
    expect(retryAfter).toBeGreaterThan(0);
    expect(Math.abs(retryAfter - secondsToHourEnd)).toBeLessThanOrEqual(2);
    // The claim itself is not locked (2 wrong codes): another network can still finish it.
    await visitorPastCode(third.path, third.init.user_code);
  });

  it('does not count a right code, nor text that is not six digits', async () => {
    const { init, path, claimId } = await agentWithClaim();
    const visitor = new Visitor();
    await visitor.get(path);
    expect((await visitor.post(path, { code: 'abc' })).res.status).toBe(400);
    expect((await visitor.post(path, { code: wrongCode(init.user_code) })).res.status).toBe(400);
    expect((await visitor.post(path, { code: `${init.user_code.slice(0, 3)} ${init.user_code.slice(3)}` })).res.status).toBe(303);
    expect((await claimById(database(env), claimId))?.wrongAttempts).toBe(1);
  });

  it('tests at most 5 codes of a claim when 20 guesses arrive at once', async () => {
    const { init, path, claimId } = await agentWithClaim();
    const visitor = new Visitor();
    await visitor.get(path);
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(init.user_code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const statuses = await Promise.all(guesses.map(async (code) => (await visitor.post(path, { code })).res.status));
    expect(statuses.filter((status) => status === 400).length).toBe(4);
    expect(statuses.filter((status) => status === 429).length).toBe(16);
    expect((await claimById(database(env), claimId))?.wrongAttempts).toBe(5);
  });
});
