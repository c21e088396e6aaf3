import { env } from 'cloudflare:workers';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { randomBase62, sha256Hex } from '../../src/accounts/credentials';
import { database } from '../../src/db';
import { insertSession } from '../../src/db/sessions';
import type { AppEnv } from '../../src/env';
import { SECURE_SESSION_COOKIE, startSession } from '../../src/human/sessions';
import { SIGN_IN_CHALLENGES_PER_IP_PER_HOUR } from '../../src/pages/signin/handlers';
import { adminCredit, expectError, register } from './helpers';
import { reread, Visitor } from './claim-helpers';

/**
 * Human sessions and the pages behind them: the cookie's flags, the dashboard only with a live
 * session and only of its own account, sign-out revoking at once, and the sign-in page's calls.
 * Sessions are made here as the claim and sign-in make them (a random token, its hash in D1).
 */

const DAY = 86_400_000;

/** A visitor holding a session of `accountId`, made as `startSession` makes one. */
async function signedInVisitor(accountId: string, state: { expiresAt?: number; revokedAt?: number } = {}): Promise<{ visitor: Visitor; token: string }> {
  const token = randomBase62(43);
  const now = Date.now();
  await insertSession(database(env), { tokenHash: await sha256Hex(token), accountId, createdAt: now, expiresAt: state.expiresAt ?? now + 30 * DAY, revokedAt: state.revokedAt ?? null });
  const visitor = new Visitor();
  visitor.cookies.set(SECURE_SESSION_COOKIE, token);
  return { visitor, token };
}

describe('human sessions', () => {
  it('set an HttpOnly, SameSite=Lax, Secure cookie for the whole site, for 30 days', async () => {
    const app = new Hono<AppEnv>().get('/start', async (c) => {
      await startSession(c, 'acct', Date.now());
      return c.text('ok');
    });
    const res = await app.request('https://gateway.test/start', {}, env);
    const cookie = res.headers.get('Set-Cookie')!;
    expect(cookie).toMatch(new RegExp(`^${SECURE_SESSION_COOKIE}=[A-Za-z0-9]{43};`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Secure');
    expect(cookie).toContain('Path=/;');
    expect(cookie).toContain(`Max-Age=${30 * 86_400}`);
    // Only the hash is stored.
    const token = /=([A-Za-z0-9]{43});/.exec(cookie)![1]!;
    const row = await env.DB.prepare('SELECT account_id FROM human_sessions WHERE token_hash = ?').bind(await sha256Hex(token)).first();
    expect(row).toEqual({ account_id: 'acct' });
  });

  it('show the dashboard of the session’s account: its short id and balance', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '7.25');
    const { visitor } = await signedInVisitor(agent.account_id);
    const { res, html } = await visitor.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("default-src 'none'");
    expect(html).toContain(`Account <code id="account-id">${agent.account_id.slice(0, 8)}</code>`);
    expect(html).toContain('$7.25');
    expect(html).toContain('Sign out');
  });

  it.each([
    ['no session', null],
    ['an expired session', { expiresAt: Date.now() - 1 }],
    ['a revoked session', { revokedAt: Date.now() - 1 }],
  ])('send %s to /signin', async (_, state) => {
    const agent = await register();
    const visitor = state ? (await signedInVisitor(agent.account_id, state)).visitor : new Visitor();
    const { res } = await visitor.get('/dashboard');
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/signin');
  });

  it('never show one account’s session another account, and refuse a forged cookie', async () => {
    const [a, b] = await Promise.all([register(), register()]);
    const { visitor: alice, token } = await signedInVisitor(a.account_id);
    const { visitor: bob } = await signedInVisitor(b.account_id);
    const seenByAlice = (await alice.get('/dashboard')).html;
    expect(seenByAlice).toContain(a.account_id.slice(0, 8));
    expect(seenByAlice).not.toContain(b.account_id.slice(0, 8));
    expect((await bob.get('/dashboard')).html).toContain(b.account_id.slice(0, 8));
    const forged = new Visitor();
    forged.cookies.set(SECURE_SESSION_COOKIE, token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'));
    expect((await forged.get('/dashboard')).res.status).toBe(303);
  });

  it('sign out with the CSRF token only, revoking the session at once', async () => {
    const agent = await register();
    const { visitor, token } = await signedInVisitor(agent.account_id);
    await visitor.get('/dashboard');
    const forged = await visitor.post('/dashboard/signout', { csrf: 'x'.repeat(32) });
    await expectError(reread(forged), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    expect((await visitor.get('/dashboard')).res.status).toBe(200);

    const { res } = await visitor.post('/dashboard/signout', {});
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/signin?signed_out=1');
    expect(visitor.cookies.has(SECURE_SESSION_COOKIE)).toBe(false);
    // The old cookie, kept by someone, no longer works.
    const replay = new Visitor();
    replay.cookies.set(SECURE_SESSION_COOKIE, token);
    expect((await replay.get('/dashboard')).res.status).toBe(303);
  });
});

describe('the sign-in page', () => {
  it('offers the passkey sign-in, and sends a signed-in visitor to the dashboard', async () => {
    const { res, html } = await new Visitor().get('/signin?signed_out=1');
    expect(res.status).toBe(200);
    expect(html).toContain('Sign in with a passkey');
    expect(html).toContain('You are signed out.');
    const agent = await register();
    const { visitor } = await signedInVisitor(agent.account_id);
    const signedIn = await visitor.get('/signin');
    expect(signedIn.res.status).toBe(303);
    expect(signedIn.res.headers.get('Location')).toBe('/dashboard');
  });

  it('answers options for a discoverable, user-verified passkey, only with the CSRF header', async () => {
    const visitor = new Visitor();
    await visitor.get('/signin');
    await expectError(await visitor.postJson('/signin/options', {}, {}), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    const res = await visitor.postJson('/signin/options', {});
    expect(res.status).toBe(200);
    const options = (await res.json()) as { rpId: string; userVerification: string; allowCredentials?: unknown[] };
    expect(options).toMatchObject({ rpId: 'gateway.test', userVerification: 'required' });
    expect(options.allowCredentials ?? []).toEqual([]);
  });

  it(`hands one IP at most ${SIGN_IN_CHALLENGES_PER_IP_PER_HOUR} sign-in challenges an hour, then 429 with Retry-After`, async () => {
    const visitor = new Visitor();
    await visitor.get('/signin');
    for (let i = 0; i < SIGN_IN_CHALLENGES_PER_IP_PER_HOUR; i++) expect((await visitor.postJson('/signin/options', {})).status).toBe(200);
    const limited = await visitor.postJson('/signin/options', {});
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    await expectError(limited, 429, 'rate_limit_exceeded', 'rate_limit_error');
  });

  it('refuses a passkey it does not know', async () => {
    const visitor = new Visitor();
    await visitor.get('/signin');
    const unknown = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' } };
    const body = await expectError(await visitor.postJson('/signin/verify', { response: unknown }), 400, 'invalid_request', 'invalid_request_error');
    expect(body.error.message).toMatch(/not registered/);
  });
});
