import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db';
import { insertPasskey, passkeyById } from '../../src/db/passkeys';
import type { AppEnv } from '../../src/env';
import { SECURE_SESSION_COOKIE, SESSION_COOKIE, startSession } from '../../src/human/sessions';
import { agentWithClaim, claimInit, claimPoll, type ClaimInit, type Visitor } from './claim-helpers';
import { ADMIN_TOKEN, bearer, call, expectError, json } from './helpers';
import { claimWithPasskey, signInWith } from './passkey-flow';

/**
 * Issue 20: the human's own view of their credentials (`/dashboard/security`), the operator's
 * reset of a human, and the session cookie's name.
 */

async function claimedAccount() {
  const { agent, init, path, claimId } = await agentWithClaim();
  const claim = await claimWithPasskey(path, init.user_code);
  expect(claim.res.status).toBe(200);
  return { agent, claimId, ...claim };
}

function reset(accountId: string, body: unknown = { reason: 'lost their passkey' }, headers: Record<string, string> = {}) {
  return call(`/admin/accounts/${accountId}/human/reset`, json(body, { Authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }));
}

async function dashboardStatus(visitor: Visitor): Promise<number> {
  return (await visitor.get('/dashboard')).res.status;
}

describe('the security page', () => {
  it('lists the passkeys and sessions, linked from the dashboard navigation', async () => {
    const { visitor, passkey } = await claimedAccount();
    const { html } = await visitor.get('/dashboard');
    expect(html).toContain('href="/dashboard/security"');
    const page = await visitor.get('/dashboard/security');
    expect(page.res.status).toBe(200);
    expect(page.html).toContain(`data-passkey-id="${passkey.id}"`);
    expect(page.html).toContain('this browser');
    expect(page.res.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
  });

  it('removes a passkey: signing in with it then fails', async () => {
    const { visitor, passkey } = await claimedAccount();
    await visitor.get('/dashboard/security');
    const removed = await visitor.post('/dashboard/security/passkeys/revoke', { passkey: passkey.id });
    expect(removed.res.status).toBe(303);
    expect(removed.res.headers.get('Location')).toBe('/dashboard/security?notice=passkey-removed');
    expect(await passkeyById(database(env), passkey.id)).toBeUndefined();
    await expectError((await signInWith(passkey)).res, 400, 'invalid_request', 'invalid_request_error');
  });

  it('refuses a removal without the CSRF token, or of a passkey of another account', async () => {
    const { visitor, passkey } = await claimedAccount();
    const other = await claimedAccount();
    await visitor.get('/dashboard/security');
    const forged = await visitor.post('/dashboard/security/passkeys/revoke', { passkey: passkey.id, csrf: 'x'.repeat(32) });
    expect(forged.res.status).toBe(400);
    const foreign = await visitor.post('/dashboard/security/passkeys/revoke', { passkey: other.passkey.id });
    expect(foreign.res.status).toBe(400);
    expect(foreign.html).toContain('no such passkey');
    expect(await passkeyById(database(env), passkey.id)).toBeDefined();
    expect(await passkeyById(database(env), other.passkey.id)).toBeDefined();
  });

  it('signs one other session out', async () => {
    const { visitor, passkey } = await claimedAccount();
    const laptop = (await signInWith(passkey)).visitor;
    const page = await visitor.get('/dashboard/security');
    const rows = [...page.html.matchAll(/data-session-id="([0-9a-f]{16})">([^]*?)<\/tr>/g)].map((m) => ({ id: m[1]!, current: m[2]!.includes('this browser') }));
    expect(rows.map((row) => row.current).sort()).toEqual([false, true]);
    const other = rows.find((row) => !row.current)!.id;
    expect((await visitor.post('/dashboard/security/sessions/revoke', { session: other })).res.status).toBe(303);
    expect(await dashboardStatus(laptop)).toBe(303);
    expect(await dashboardStatus(visitor)).toBe(200);
  });

  it('signs out everywhere: every session of the account is revoked', async () => {
    const { visitor, passkey } = await claimedAccount();
    const laptop = (await signInWith(passkey)).visitor;
    expect(await dashboardStatus(laptop)).toBe(200);
    await visitor.get('/dashboard/security');
    const out = await visitor.post('/dashboard/security/signout-everywhere', {});
    expect(out.res.status).toBe(303);
    expect(out.res.headers.get('Location')).toBe('/signin?signed_out=1');
    expect(await dashboardStatus(laptop)).toBe(303);
    expect(await dashboardStatus(visitor)).toBe(303);
    // The passkey still signs in.
    expect((await signInWith(passkey)).res.status).toBe(200);
  });
});

describe('POST /admin/accounts/{id}/human/reset', () => {
  it("removes the human's passkeys and sessions; the account stays claimed and takes a new claim with the operator's token (D36)", async () => {
    const { agent, visitor, passkey } = await claimedAccount();
    const stored = (await passkeyById(database(env), passkey.id))!;
    const res = await reset(agent.account_id);
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { claim_token: string };
    expect(answer).toMatchObject({ account_id: agent.account_id, passkeys_removed: 1, sessions_revoked: 1, reset_id: expect.stringMatching(/^reset:/), reclaim: 'claim_token' });
    expect(await dashboardStatus(visitor)).toBe(303);
    await expectError((await signInWith(passkey)).res, 400, 'invalid_request', 'invalid_request_error');
    const account = (await (await call('/agent/account', bearer(agent.api_key))).json()) as { claimed: boolean };
    expect(account.claimed).toBe(true);
    await expectError(await claimPoll(agent.claim_token), 400, 'expired_token', 'invalid_request_error');

    const again = await claimInit({ claim_token: answer.claim_token });
    expect(again.status).toBe(200);
    const fresh = (await again.json()) as ClaimInit;
    const human = await claimWithPasskey(new URL(fresh.verification_uri).pathname, fresh.user_code);
    expect(human.res.status).toBe(200);
    expect((await signInWith(human.passkey)).res.status).toBe(200);
    expect((await claimPoll(agent.claim_token)).status).toBe(200);

    // A passkey row of the reset human that survived (say, written by a request in flight) never signs in.
    expect(await insertPasskey(database(env), stored)).toBe(true);
    await expectError((await signInWith(passkey)).res, 400, 'invalid_request', 'invalid_request_error');

    const audit = await env.DB.prepare('SELECT reason, passkeys_removed FROM human_resets WHERE account_id = ?').bind(agent.account_id).all();
    expect(audit.results).toEqual([{ reason: 'lost their passkey', passkeys_removed: 1 }]);
  });

  it('answers a retry with the same Idempotency-Key with the first reset, resetting nothing again', async () => {
    const { agent } = await claimedAccount();
    const key = crypto.randomUUID();
    const { claim_token, claim_token_expires_at, reclaim, ...first } = (await (await reset(agent.account_id, undefined, { 'Idempotency-Key': key })).json()) as Record<string, unknown>;
    expect(reclaim).toBe('claim_token');
    const fresh = (await (await claimInit({ claim_token })).json()) as ClaimInit;
    const human = await claimWithPasskey(new URL(fresh.verification_uri).pathname, fresh.user_code);
    const retry = await reset(agent.account_id, undefined, { 'Idempotency-Key': key });
    // The same reset, without the token (it is shown once).
    expect(await retry.json()).toEqual(first);
    expect((await signInWith(human.passkey)).res.status).toBe(200);
  });

  it.each([
    ['no reason', {}, 'reason'],
    ['an empty reason', { reason: '' }, 'reason'],
  ])('refuses %s with 400', async (_, body, param) => {
    const { agent } = await agentWithClaim();
    await expectError(await reset(agent.account_id, body), 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('answers 404 for an unknown account and 401 without the operator token', async () => {
    await expectError(await reset(crypto.randomUUID()), 404, 'not_found', 'invalid_request_error');
    const res = await call(`/admin/accounts/${crypto.randomUUID()}/human/reset`, json({ reason: 'x' }));
    expect(res.status).toBe(401);
  });

  it('is in /openapi.json', async () => {
    const spec = (await (await call('/openapi.json')).json()) as { paths: Record<string, { post?: unknown }> };
    expect(spec.paths['/admin/accounts/{account_id}/human/reset']?.post).toBeDefined();
  });
});

describe('the session cookie', () => {
  async function cookieAt(base: string): Promise<string> {
    const app = new Hono<AppEnv>().get('/start', async (c) => {
      await startSession(c, 'acct', Date.now());
      return c.text('ok');
    });
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(`${base}/start`), { ...env, PUBLIC_BASE_URL: base } as Env, ctx);
    await waitOnExecutionContext(ctx);
    return res.headers.get('Set-Cookie')!;
  }

  it('is __Host- prefixed on https: Secure, Path=/, no Domain', async () => {
    const cookie = await cookieAt('https://gateway.example');
    expect(cookie.startsWith(`${SECURE_SESSION_COOKIE}=`)).toBe(true);
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Path=/;');
    expect(cookie).not.toMatch(/Domain=/i);
  });

  it('keeps its plain name on http, where browsers refuse the prefix', async () => {
    const cookie = await cookieAt('http://localhost:8787');
    expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
    expect(cookie).not.toContain('Secure');
  });
});
