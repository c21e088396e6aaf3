import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../../src/db';
import { claimById } from '../../src/db/claims';
import { adminCredit, call, expectError } from './helpers';
import { agentWithClaim, pageErrorCode, reread, Visitor, visitorPastCode } from './claim-helpers';

/**
 * The verification page (`/claim/<id>`) without a browser: its steps, CSRF on every form and
 * JSON post, the ticket cookie, the emailed code, and what the passkey calls refuse. The passkey
 * ceremony itself runs in Chromium (test/node/claim.browser.test.ts).
 */

afterEach(() => {
  vi.restoreAllMocks();
});

/** Codes the log sender mailed while `body` ran, newest last. */
async function mailedCodes<T>(body: () => Promise<T>): Promise<{ result: T; codes: string[] }> {
  const log = vi.spyOn(console, 'log');
  const result = await body();
  const codes = log.mock.calls.map((args) => /enter this code on that page: (\d{6})/.exec(String(args[0]))?.[1]).filter((code): code is string => code !== undefined);
  log.mockRestore();
  return { result, codes };
}

describe('the claim page', () => {
  it('shows the code form filled from ?code=, under a strict CSP, never cached', async () => {
    const { init } = await agentWithClaim();
    const { res, html } = await new Visitor().get(new URL(init.verification_uri_complete).pathname + new URL(init.verification_uri_complete).search);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Security-Policy')).toContain("default-src 'none'; script-src 'self'");
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    expect(res.headers.get('Referrer-Policy')).toBe('no-referrer');
    expect(html).toContain('<label for="user-code">');
    expect(html).toMatch(new RegExp(`id="user-code"[^>]*value="${init.user_code}"`));
    expect(html).not.toContain('<script>');
  });

  it('answers an unknown or malformed claim id with 404', async () => {
    expect((await new Visitor().get('/claim/clm_AAAAAAAAAAAAAAAAAAAA')).res.status).toBe(404);
    expect((await new Visitor().get('/claim/nonsense')).res.status).toBe(404);
  });

  it.each([
    ['without the token', { csrf: '' }, {}],
    ['with a token not its own', { csrf: 'A'.repeat(32) }, {}],
    ['from another site (Origin)', {}, { Origin: 'https://evil.test' }],
    ['from another site (Sec-Fetch-Site)', {}, { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a code posted %s, counting nothing', async (_, fields: Record<string, string>, headers: Record<string, string>) => {
    const { init, path, claimId } = await agentWithClaim();
    const visitor = new Visitor();
    await visitor.get(path);
    const refused = await visitor.post(path, { code: init.user_code, ...fields }, headers);
    await expectError(reread(refused), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    expect((await claimById(database(env), claimId))?.ticketHash).toBeNull();
  });

  it('accepts a post with Origin: null from our own page (no-referrer), by Sec-Fetch-Site', async () => {
    const { init, path } = await agentWithClaim();
    const visitor = new Visitor();
    await visitor.get(path);
    const { res } = await visitor.post(path, { code: init.user_code }, { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' });
    expect(res.status).toBe(303);
  });

  it('gives the browser that entered the code an HttpOnly, SameSite=Strict, Secure ticket for this claim only, then shows the account', async () => {
    const { agent, init, path } = await agentWithClaim();
    await adminCredit(agent.account_id, '12.50');
    const visitor = await visitorPastCode(path, init.user_code);
    const ticket = visitor.setCookies.find((cookie) => cookie.startsWith('claim_ticket='))!;
    expect(ticket).toMatch(/HttpOnly/);
    expect(ticket).toMatch(/SameSite=Strict/);
    expect(ticket).toMatch(/Secure/);
    expect(ticket).toContain(`Path=${path};`);

    const { html } = await visitor.get(path);
    expect(html).toContain(`<code id="account-id">${agent.account_id.slice(0, 8)}</code>`);
    expect(html).toContain('$12.50');
    expect(html).toContain(new Date().toISOString().slice(0, 10));
    expect(html).toContain('Confirm with a passkey');
    expect(html).toContain('<script src="/assets/webauthn.js" defer=""></script><script src="/assets/claim.js" defer=""></script>');
    // Another browser, without the ticket, is asked for the code.
    expect((await new Visitor().get(path)).html).toContain('6-digit code from the agent');
  });

  it('asks an email-bound claim for the mailed code: wrong ones count, a resend replaces it', async () => {
    const { init, path, claimId } = await agentWithClaim(`human-${crypto.randomUUID()}@example.com`);
    const { result: visitor, codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    expect(codes).toHaveLength(1);
    const first = codes[0]!;
    // A reload does not mail again.
    expect((await mailedCodes(() => visitor.get(path))).codes).toEqual([]);

    const wrong = await visitor.post(`${path}/email`, { email_code: first === '000000' ? '000001' : '000000' });
    expect(wrong.res.status).toBe(400);
    expect(wrong.html).toContain('4 more tries');
    expect((await claimById(database(env), claimId))?.wrongAttempts).toBe(1);

    const resent = await mailedCodes(() => visitor.post(`${path}/email/resend`, {}));
    expect(resent.result.html).toContain('A new code is on its way');
    const second = resent.codes[0]!;
    if (second !== first) expect((await visitor.post(`${path}/email`, { email_code: first })).res.status).toBe(400);
    const right = await visitor.post(`${path}/email`, { email_code: second });
    expect(right.res.status).toBe(303);
    expect((await visitor.get(path)).html).toContain('Confirm with a passkey');
  });

  it('stops resending the email code after three sends', async () => {
    const { init, path } = await agentWithClaim(`human-${crypto.randomUUID()}@example.com`);
    const visitor = await visitorPastCode(path, init.user_code);
    expect((await visitor.post(`${path}/email/resend`, {})).res.status).toBe(200);
    expect((await visitor.post(`${path}/email/resend`, {})).res.status).toBe(200);
    const refused = await visitor.post(`${path}/email/resend`, {});
    expect(refused.res.status).toBe(400);
    expect(refused.html).toContain('No more codes');
  });

  it('locks the claim through wrong email codes too', async () => {
    const { init, path } = await agentWithClaim(`human-${crypto.randomUUID()}@example.com`);
    const { result: visitor, codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    const mailed = Number(codes[0]);
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push((await visitor.post(`${path}/email`, { email_code: String((mailed + i) % 1_000_000).padStart(6, '0') })).res.status);
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(pageErrorCode((await visitor.get(path)).html)).toBe('claim_attempts_exceeded');
  });
});

describe('the passkey calls of the claim page', () => {
  it('need the CSRF header, the ticket, and the email code first', async () => {
    const { init, path } = await agentWithClaim(`human-${crypto.randomUUID()}@example.com`);
    const stranger = new Visitor();
    await stranger.get(path);
    await expectError(await stranger.postJson(`${path}/passkey/options`, {}, {}), 400, 'invalid_request', 'invalid_request_error', 'csrf');
    const noTicket = await expectError(await stranger.postJson(`${path}/passkey/options`, {}), 400, 'invalid_request', 'invalid_request_error');
    expect(noTicket.error.message).toMatch(/code from the agent/);
    const visitor = await visitorPastCode(path, init.user_code);
    await visitor.get(path);
    const noEmail = await expectError(await visitor.postJson(`${path}/passkey/options`, {}), 400, 'invalid_request', 'invalid_request_error');
    expect(noEmail.error.message).toMatch(/code from the email/);
  });

  it('answer options for a resident, user-verified passkey on this host', async () => {
    const { agent, init, path } = await agentWithClaim();
    const visitor = await visitorPastCode(path, init.user_code);
    await visitor.get(path);
    const res = await visitor.postJson(`${path}/passkey/options`, {});
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      rp: { id: 'gateway.test', name: 'AI Gateway' },
      user: { name: `account-${agent.account_id.slice(0, 8)}` },
      challenge: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/),
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      attestation: 'none',
    });
  });

  it.each([
    ['not JSON', '{"response":', undefined],
    ['no response', '{}', 'response'],
    ['a response of the wrong shape', '{"response":{"id":"x","rawId":"x","type":"public-key","response":{"clientDataJSON":"!!"}}}', 'response.response.clientDataJSON'],
  ])('refuse a verification that is %s with 400, never a 500', async (_, body, param) => {
    const { init, path } = await agentWithClaim();
    const visitor = await visitorPastCode(path, init.user_code);
    await visitor.get(path);
    const res = await call(`${path}/passkey/verify`, { method: 'POST', headers: visitor.headers({ 'X-CSRF-Token': visitor.csrf }), body });
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('refuse a made-up credential, leaving the claim pending', async () => {
    const { init, path, claimId } = await agentWithClaim();
    const visitor = await visitorPastCode(path, init.user_code);
    await visitor.get(path);
    await visitor.postJson(`${path}/passkey/options`, {});
    const clientData = btoa(JSON.stringify({ type: 'webauthn.create', challenge: 'AAAA', origin: 'https://gateway.test' })).replace(/=+$/, '');
    const fake = { id: 'AAAA', rawId: 'AAAA', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: clientData, attestationObject: 'AAAA' } };
    const body = await expectError(await visitor.postJson(`${path}/passkey/verify`, { response: fake }), 400, 'invalid_request', 'invalid_request_error');
    expect(body.error.message).toMatch(/could not be verified/);
    expect((await claimById(database(env), claimId))?.status).toBe('pending');
  });
});

describe('page assets', () => {
  it('serves @simplewebauthn/browser and our passkey script as JavaScript', async () => {
    const library = await call('/assets/webauthn.js');
    expect(library.headers.get('Content-Type')).toMatch(/^text\/javascript/);
    expect(await library.text()).toMatch(/^\/\* \[@simplewebauthn\/browser@14\.0\.0\] \*\//);
    const ours = await call('/assets/claim.js');
    expect(await ours.text()).toContain('startRegistration');
  });
});
