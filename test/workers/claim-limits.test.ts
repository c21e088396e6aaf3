import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { database } from '../../src/db';
import { claimById, markEmailVerified } from '../../src/db/claims';
import { agentWithClaim, claimInit, Visitor, visitorPastCode } from './claim-helpers';
import { bearer, call, expectError, register } from './helpers';
import { claimWithPasskey, mailedCodes, registration, verify } from './passkey-flow';
import { SoftwarePasskey } from './software-passkey';

/**
 * Issue 20: the email step belongs to the browser that passed it, and claims cannot be used to
 * mail-bomb: 3 inits per account an hour, 3 mails per claim and 3 per address an hour.
 */

afterEach(() => {
  vi.restoreAllMocks();
});

const address = () => `owner-${crypto.randomUUID()}@example.com`;

describe('the emailed code of a claim', () => {
  it('verifies only the browser that entered it: a second browser with the link and user code gets no passkey step', async () => {
    const { agent, init, path, claimId } = await agentWithClaim(address());
    const { result: owner, codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    expect((await owner.post(`${path}/email`, { email_code: codes[0]! })).res.status).toBe(303);
    expect((await owner.get(path)).html).toContain('Confirm with a passkey');

    // The agent, with the link and the user code, in its own browser.
    const intruder = await visitorPastCode(path, init.user_code);
    expect((await intruder.get(path)).html).not.toContain('Confirm with a passkey');
    const refused = await expectError(await intruder.postJson(`${path}/passkey/options`, {}), 400, 'invalid_request', 'invalid_request_error');
    expect(refused.error.message).toMatch(/code from the email/);
    expect((await claimById(database(env), claimId))?.status).toBe('pending');
    const account = (await (await call('/agent/account', bearer(agent.api_key))).json()) as { claimed: boolean };
    expect(account.claimed).toBe(false);

    // The owner enters the user code and the mailed code again and finishes.
    const { res } = await claimWithPasskey(path, init.user_code, codes[0]!);
    expect(res.status).toBe(200);
  });

  it.each([0, 1, 2, 4, 8])('does not carry over to a browser that takes the ticket while the code is being entered (%i ms apart)', async (offsetMs) => {
    const { init, path } = await agentWithClaim(address());
    const { result: owner, codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    const intruder = new Visitor();
    await intruder.get(path);
    await Promise.all([
      owner.post(`${path}/email`, { email_code: codes[0]! }),
      new Promise((resolve) => setTimeout(resolve, offsetMs)).then(() => intruder.post(path, { code: init.user_code })),
    ]);
    await expectError(await intruder.postJson(`${path}/passkey/options`, {}), 400, 'invalid_request', 'invalid_request_error');
  });

  it('is recorded only for the ticket still on the claim', async () => {
    const { init, path, claimId } = await agentWithClaim(address());
    await visitorPastCode(path, init.user_code);
    const db = database(env);
    expect(await markEmailVerified(db, claimId, 'a'.repeat(64), Date.now())).toBe(false);
    const row = await claimById(db, claimId);
    expect(row?.emailVerifiedAt).toBeNull();
    expect(await markEmailVerified(db, claimId, row!.ticketHash!, Date.now())).toBe(true);
  });

  it('is refused to a browser holding options from before another browser took the ticket', async () => {
    const { init, path } = await agentWithClaim(address());
    const { result: owner, codes } = await mailedCodes(() => visitorPastCode(path, init.user_code));
    expect((await owner.post(`${path}/email`, { email_code: codes[0]! })).res.status).toBe(303);
    const body = await registration(owner, path, new SoftwarePasskey());
    await visitorPastCode(path, init.user_code);
    await expectError(await verify(owner, path, body), 400, 'invalid_request', 'invalid_request_error');
  });
});

describe('claim limits', () => {
  it('answers the 4th init of an account within an hour with 429 rate_limit_exceeded and Retry-After', async () => {
    const agent = await register();
    for (let i = 0; i < 3; i++) expect((await claimInit({ claim_token: agent.claim_token })).status).toBe(200);
    const res = await claimInit({ claim_token: agent.claim_token });
    const retryAfter = Number(res.headers.get('Retry-After'));
    await expectError(res, 429, 'rate_limit_exceeded', 'rate_limit_error');
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another account is not limited by it.
    expect((await claimInit({ claim_token: (await register()).claim_token })).status).toBe(200);
  });

  it('sends one address at most 3 claim mails an hour, across claims and accounts', async () => {
    const to = address();
    const first = await agentWithClaim(to);
    const { result: visitor, codes: sent } = await mailedCodes(async () => {
      const v = await visitorPastCode(first.path, first.init.user_code);
      expect((await v.post(`${first.path}/email/resend`, {})).res.status).toBe(200);
      expect((await v.post(`${first.path}/email/resend`, {})).res.status).toBe(200);
      return v;
    });
    expect(sent).toHaveLength(3);
    expect(visitor).toBeInstanceOf(Visitor);

    // A claim of another account to the same address: its first mail is not sent, and a resend says why.
    const second = await agentWithClaim(to.toUpperCase());
    const { result: other, codes: none } = await mailedCodes(() => visitorPastCode(second.path, second.init.user_code));
    expect(none).toEqual([]);
    const { result: resend, codes: still } = await mailedCodes(() => other.post(`${second.path}/email/resend`, {}));
    expect(still).toEqual([]);
    expect(resend.res.status).toBe(429);
    expect(Number(resend.res.headers.get('Retry-After'))).toBeGreaterThan(3500);
    expect(resend.html).toContain('three codes in the last hour');

    // Another address is not limited by it.
    const third = await agentWithClaim(address());
    expect((await mailedCodes(() => visitorPastCode(third.path, third.init.user_code))).codes).toHaveLength(1);
  });
});
