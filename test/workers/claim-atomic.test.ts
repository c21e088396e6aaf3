import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../../src/db';
import { claimById } from '../../src/db/claims';
import { passkeyById } from '../../src/db/passkeys';
import { agentWithClaim, claimInit, claimPoll, type ClaimInit } from './claim-helpers';
import { accountStub, bearer, call, expectError } from './helpers';
import { atPasskeyStep, claimWithPasskey, registration, signInWith, verify } from './passkey-flow';
import { SoftwarePasskey } from './software-passkey';

/**
 * Issue 20: registering the claim's passkey and approving the claim are one step. The account's
 * Durable Object approves a claim only while it is the account's current claim and nobody holds
 * the account; a passkey signs in only while its claim's human holds the account. Through the
 * public pages with a software passkey, as an agent holding the claim token and user code would.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function isClaimed(apiKey: string): Promise<boolean> {
  const res = await call('/agent/account', bearer(apiKey));
  return ((await res.json()) as { claimed: boolean }).claimed;
}

describe('a claim finished with a passkey', () => {
  it('claims the account, answers the poll, and the passkey signs in again', async () => {
    const { agent, init, path, claimId } = await agentWithClaim();
    const { res, passkey } = await claimWithPasskey(path, init.user_code);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ redirect: '/dashboard' });
    expect(await isClaimed(agent.api_key)).toBe(true);
    expect((await claimPoll(agent.claim_token)).status).toBe(200);
    expect((await claimById(database(env), claimId))?.status).toBe('approved');
    expect((await passkeyById(database(env), passkey.id))?.claimId).toBe(claimId);

    const signIn = await signInWith(passkey);
    expect(signIn.res.status).toBe(200);
    expect((await signIn.visitor.get('/dashboard')).res.status).toBe(200);
  });

  it('refuses a new init once claimed', async () => {
    const { agent, init, path } = await agentWithClaim();
    expect((await claimWithPasskey(path, init.user_code)).res.status).toBe(200);
    const body = await expectError(await claimInit({ claim_token: agent.claim_token }), 400, 'invalid_request', 'invalid_request_error');
    expect(body.error.message).toMatch(/already been claimed/);
  });
});

describe('a re-init racing the passkey verification', () => {
  it('leaves no passkey of the superseded claim: verify after re-init is refused and its passkey never signs in', async () => {
    const { agent, init, path } = await agentWithClaim();
    const visitor = await atPasskeyStep(path, init.user_code);
    const passkey = new SoftwarePasskey();
    const body = await registration(visitor, path, passkey);
    expect((await claimInit({ claim_token: agent.claim_token })).status).toBe(200);

    await expectError(await verify(visitor, path, body), 400, 'invalid_request', 'invalid_request_error');
    expect(await passkeyById(database(env), passkey.id)).toBeUndefined();
    expect(await isClaimed(agent.api_key)).toBe(false);
    await expectError((await signInWith(passkey)).res, 400, 'invalid_request', 'invalid_request_error');
  });

  // The agent sends verify and a re-init at offsets around each other (negative: the init first):
  // wherever the init lands, either the claim completed (and the init is refused) or nothing of it signs in.
  it.each([-50, -30, -20, -12, -8, -5, -3, -2, -1, 0, 1, 2, 3, 5, 8])('never leaves a working passkey on an unclaimed account (init at %i ms from verify)', async (offsetMs) => {
    const { agent, init, path, claimId } = await agentWithClaim();
    const visitor = await atPasskeyStep(path, init.user_code);
    const passkey = new SoftwarePasskey();
    const body = await registration(visitor, path, passkey);

    const [verified, reinit] = await Promise.all([
      sleep(Math.max(0, -offsetMs)).then(() => verify(visitor, path, body)),
      sleep(Math.max(0, offsetMs)).then(() => claimInit({ claim_token: agent.claim_token })),
    ]);
    const claimed = await isClaimed(agent.api_key);
    const signIn = await signInWith(passkey);
    if (verified.status === 200) {
      expect(claimed).toBe(true);
      expect(reinit.status).toBe(400);
      expect(signIn.res.status).toBe(200);
      expect((await accountStub(agent.account_id).humanHolder())?.humanClaimId).toBe(claimId);
    } else {
      expect(verified.status).toBe(400);
      expect(reinit.status).toBe(200);
      expect(claimed).toBe(false);
      expect(signIn.res.status).toBe(400);
      expect(await passkeyById(database(env), passkey.id)).toBeUndefined();
      // The human then claims with the new code: the agent's passkey still does not sign in.
      const fresh = (await reinit.json()) as ClaimInit;
      const human = await claimWithPasskey(new URL(fresh.verification_uri).pathname, fresh.user_code);
      expect(human.res.status).toBe(200);
      expect((await signInWith(passkey)).res.status).toBe(400);
      expect((await signInWith(human.passkey)).res.status).toBe(200);
    }
  });

  it('approves one of two claims finished at once, never both', async () => {
    const { agent, init, path } = await agentWithClaim();
    const first = await atPasskeyStep(path, init.user_code);
    const firstKey = new SoftwarePasskey();
    const firstBody = await registration(first, path, firstKey);
    const secondKey = new SoftwarePasskey();
    const secondBody = await registration(first, path, secondKey);
    const answers = await Promise.all([verify(first, path, firstBody), verify(first, path, secondBody)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    const signIns = await Promise.all([signInWith(firstKey), signInWith(secondKey)]);
    expect(signIns.map(({ res }) => res.status).sort()).toEqual([200, 400]);
    expect(await isClaimed(agent.api_key)).toBe(true);
  });
});

describe('the account Durable Object as the authority on a claim', () => {
  it('approves only the current claim, once, and refuses inits while a human holds the account', async () => {
    const { agent } = await agentWithClaim();
    const stub = accountStub(agent.account_id);
    const now = Date.now();
    expect(await stub.openClaim('clm_a', now)).toEqual({ ok: true, email: null });
    expect(await stub.openClaim('clm_b', now)).toEqual({ ok: true, email: null });
    // The fourth init within the hour (agentWithClaim made the first).
    expect(await stub.openClaim('clm_c', now)).toEqual({ ok: false, reason: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    expect(await stub.approveClaim('clm_a', now)).toBe(false);
    expect(await stub.approveClaim('clm_x', now)).toBe(false);
    expect(await stub.approveClaim('clm_b', now)).toBe(true);
    expect(await stub.approveClaim('clm_b', now)).toBe(false);
    expect(await stub.humanHolder()).toEqual({ claimed: true, humanClaimId: 'clm_b' });
    expect(await stub.openClaim('clm_d', now + 2 * 3_600_000)).toEqual({ ok: false, reason: 'claimed' });
  });
});
