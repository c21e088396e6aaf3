import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { agentWithClaim, claimInit, claimPoll, visitorPastCode, type ClaimInit } from './claim-helpers';
import { ADMIN_TOKEN, call, expectError, json } from './helpers';
import { claimWithPasskey, registration, signInWith, verify } from './passkey-flow';
import { SoftwarePasskey } from './software-passkey';

/**
 * D36 (issue 35, item 3): after an operator's reset, the agent's original claim token never claims
 * the account again alone. It is claimed again only by the code mailed to the reset human's
 * verified address on record, or, with none on record, by the operator's one-time claim token
 * from the reset's answer (once, within 72 hours).
 */

interface ResetAnswer {
  account_id: string;
  reclaim?: 'email' | 'claim_token';
  reclaim_email?: string;
  claim_token?: string;
  claim_token_expires_at?: string;
}

async function reset(accountId: string, headers: Record<string, string> = {}): Promise<ResetAnswer> {
  const res = await call(`/admin/accounts/${accountId}/human/reset`, json({ reason: 'lost their passkey' }, { Authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Mails the log sender sent while `body` ran: recipient and code. */
async function mailed<T>(body: () => Promise<T>): Promise<{ result: T; mails: { to: string; code: string }[] }> {
  const log = vi.spyOn(console, 'log');
  try {
    const result = await body();
    const mails = log.mock.calls.flatMap((args) => {
      const match = /^\[email\] to ([^:]+):[^]*enter this code on that page: (\d{6})/.exec(String(args[0]));
      return match ? [{ to: match[1]!, code: match[2]! }] : [];
    });
    return { result, mails };
  } finally {
    log.mockRestore();
  }
}

const pathOf = (init: ClaimInit) => new URL(init.verification_uri).pathname;

async function openClaim(claimToken: string, body: Record<string, unknown> = {}): Promise<ClaimInit> {
  const res = await claimInit({ claim_token: claimToken, ...body });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** An account whose human claimed it with a passkey (and the address, when given, whose mailed code they entered). */
async function claimedAccount(email?: string) {
  const { agent, init, path } = await agentWithClaim(email);
  if (!email) {
    expect((await claimWithPasskey(path, init.user_code)).res.status).toBe(200);
    return agent;
  }
  const { result: visitor, mails } = await mailed(() => visitorPastCode(path, init.user_code));
  expect((await visitor.post(`${path}/email`, { email_code: mails[0]!.code })).res.status).toBe(303);
  expect((await verify(visitor, path, await registration(visitor, path, new SoftwarePasskey()))).status).toBe(200);
  return agent;
}

describe('claiming again after an operator reset (D36)', () => {
  it("refuses the agent's original claim token when no address is on record", async () => {
    const agent = await claimedAccount();
    const answer = await reset(agent.account_id);
    const refused = await expectError(await claimInit({ claim_token: agent.claim_token }), 401, 'invalid_claim_token', 'authentication_error');
    expect(refused.error.message).toContain('one-time claim token');
    expect(answer).toMatchObject({ reclaim: 'claim_token', claim_token: expect.stringMatching(/^act_[0-9A-Za-z]{54}$/) });
    // Polling still reports the state, and nothing holds the account.
    await expectError(await claimPoll(agent.claim_token), 400, 'expired_token', 'invalid_request_error');
  });

  it('claims again by the code mailed to the verified address on record, and only through it', async () => {
    const address = `owner-${crypto.randomUUID()}@example.com`;
    const agent = await claimedAccount(address);
    const answer = await reset(agent.account_id);
    expect(answer.reclaim).toBe('email');
    expect(answer.reclaim_email).toMatch(/^ow•••@example\.com$/);
    expect(answer.claim_token).toBeUndefined();

    // Another address cannot be bound.
    await expectError(await claimInit({ claim_token: agent.claim_token, email: 'attacker@example.com' }), 400, 'invalid_request', 'invalid_request_error', 'email');

    // The original token opens a claim, but it is bound to the address on record: the user code alone reaches no passkey step.
    const init = await openClaim(agent.claim_token);
    const path = pathOf(init);
    const { result: visitor, mails } = await mailed(() => visitorPastCode(path, init.user_code));
    expect(mails.map((mail) => mail.to)).toEqual([address]);
    expect((await visitor.get(path)).html).toContain('Code from the email');
    await expectError(await visitor.postJson(`${path}/passkey/options`, {}), 400, 'invalid_request', 'invalid_request_error');

    expect((await visitor.post(`${path}/email`, { email_code: mails[0]!.code })).res.status).toBe(303);
    const passkey = new SoftwarePasskey();
    expect((await verify(visitor, path, await registration(visitor, path, passkey))).status).toBe(200);
    expect((await visitor.get('/dashboard')).res.status).toBe(200);
    expect((await signInWith(passkey)).res.status).toBe(200);
    expect((await claimPoll(agent.claim_token)).status).toBe(200);

    // A second reset still knows the address (the re-claim kept it on record).
    expect(await reset(agent.account_id)).toMatchObject({ reclaim: 'email' });
  });

  it("claims again with the operator's one-time token, once and only once", async () => {
    const agent = await claimedAccount();
    const { claim_token: token, claim_token_expires_at: expiresAt } = await reset(agent.account_id);
    expect(Date.parse(expiresAt!) - Date.now()).toBeGreaterThan(71 * 3_600_000);
    expect(Date.parse(expiresAt!) - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);

    const init = await openClaim(token!);
    const human = await claimWithPasskey(pathOf(init), init.user_code);
    expect(human.res.status).toBe(200);
    expect((await human.visitor.get('/dashboard')).res.status).toBe(200);
    expect((await claimPoll(token!)).status).toBe(401);
    expect((await claimPoll(agent.claim_token)).status).toBe(200);

    // Spent: it opens nothing, even after the next reset (which answers a new one).
    await expectError(await claimInit({ claim_token: token! }), 401, 'invalid_claim_token', 'authentication_error');
    const next = await reset(agent.account_id);
    expect(next.claim_token).not.toBe(token);
    await expectError(await claimInit({ claim_token: token! }), 401, 'invalid_claim_token', 'authentication_error');
    await expectError(await claimInit({ claim_token: agent.claim_token }), 401, 'invalid_claim_token', 'authentication_error');
    expect((await claimInit({ claim_token: next.claim_token! })).status).toBe(200);
  });

  it("refuses the operator's token once it expired", async () => {
    const agent = await claimedAccount();
    const { claim_token: token } = await reset(agent.account_id);
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(agent.account_id));
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec('UPDATE human_claim SET reclaim_token_expires_at = ?', Date.now() - 1);
    });
    await expectError(await claimInit({ claim_token: token! }), 401, 'invalid_claim_token', 'authentication_error');
  });

  it('refuses the original token of an account reset before D36; the next reset finds the address its human verified', async () => {
    const address = `early-${crypto.randomUUID()}@example.com`;
    const agent = await claimedAccount(address);
    // As the reset before D36 and migration 0014 leave it: nobody holds it, nothing recorded.
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(agent.account_id));
    await runInDurableObject(stub, (_, state) => {
      state.storage.sql.exec('UPDATE human_claim SET human_claim_id = NULL, current_claim_id = NULL, reset_at = ?', Date.now());
    });
    await expectError(await claimInit({ claim_token: agent.claim_token }), 401, 'invalid_claim_token', 'authentication_error');
    expect(await reset(agent.account_id)).toMatchObject({ reclaim: 'email', reclaim_email: 'ea•••@example.com' });
    const init = await openClaim(agent.claim_token);
    const { mails } = await mailed(() => visitorPastCode(pathOf(init), init.user_code));
    expect(mails.map((mail) => mail.to)).toEqual([address]);
  });

  it('answers an idempotent retry without the token (shown once); the first one still works', async () => {
    const agent = await claimedAccount();
    const key = crypto.randomUUID();
    const first = await reset(agent.account_id, { 'Idempotency-Key': key });
    const retry = await reset(agent.account_id, { 'Idempotency-Key': key });
    expect(retry.claim_token).toBeUndefined();
    expect((await claimInit({ claim_token: first.claim_token! })).status).toBe(200);
  });
});
