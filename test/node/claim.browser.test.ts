import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, claimInBrowser, fitsWidth, launchBrowser, openTab as open, PHONE } from './browser';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Claiming an agent's account as a person does it, in Debian's Chromium with a virtual passkey
 * authenticator (CDP): the agent registers and starts a claim bound to an email; the person opens
 * the link, sees the account, types the mailed code (read from the gateway's log, where the local
 * sender writes it), makes a passkey and lands on the dashboard; the agent's poll says `claimed`.
 * Then sign-out and sign-in again with the same passkey. Screenshots go to test/artifacts/.
 *
 * The pages are opened on `localhost`: WebAuthn needs a domain for its RP ID, and `127.0.0.1` is none.
 */

const ADMIN = 'claim-browser-admin-token-0123456789';

let gateway: RunningGateway;
let browser: Browser;
/** The gateway as people and agents reach it here: `http://localhost:<port>`. */
let base: string;

beforeAll(async () => {
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});

let ipSequence = 0;

interface Agent {
  accountId: string;
  apiKey: string;
  claimToken: string;
}

async function agent(): Promise<Agent> {
  ipSequence++;
  const res = await fetch(`${base}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': `198.51.100.${ipSequence}` }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { account_id: string; api_key: string; claim_token: string };
  await fetch(`${base}/admin/accounts/${body.account_id}/credits`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ amount_usd: '12.50', reason: 'test' }) });
  return { accountId: body.account_id, apiKey: body.api_key, claimToken: body.claim_token };
}

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) });
}

/** A tab with a passkey authenticator built in. */
const openTab = (viewport?: { width: number; height: number }) => open(browser, { viewport, passkey: true });

/** The code the local email sender logged for this account, waiting for the log to show it. */
async function mailedCode(accountId: string): Promise<string> {
  const pattern = new RegExp(`Your code to claim account ${accountId.slice(0, 8)}: (\\d{6})`, 'g');
  for (let i = 0; i < 50; i++) {
    const codes = [...gateway.output().matchAll(pattern)].map((match) => match[1]!);
    if (codes.length > 0) return codes.at(-1)!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code was mailed for ${accountId}`);
}

describe('claiming an account in a browser', () => {
  it('takes a person from the agent’s link through the mailed code and a passkey to the dashboard, and back in with the passkey', { timeout: 120_000 }, async () => {
    const owner = await agent();
    const shortId = owner.accountId.slice(0, 8);
    const initRes = await post('/agent/claim/init', { claim_token: owner.claimToken, email: 'owner@example.com' });
    expect(initRes.status).toBe(200);
    const init = (await initRes.json()) as { user_code: string; verification_uri: string; verification_uri_complete: string };
    expect(init.verification_uri).toMatch(new RegExp(`^${base}/claim/clm_`));

    const { context, page, problems } = await openTab();
    try {
      await page.goto(init.verification_uri_complete);
      await expect(page.getByLabel('6-digit code from the agent').inputValue()).resolves.toBe(init.user_code);
      await page.screenshot({ path: `${ARTIFACTS}claim-code-desktop.png`, fullPage: true });
      await Promise.all([page.waitForURL(init.verification_uri), page.getByRole('button', { name: 'Continue' }).click()]);

      // The account being claimed, then the code mailed to the claim's address.
      await expect(page.locator('#account-id').innerText()).resolves.toBe(shortId);
      await expect(page.locator('#account-balance').innerText()).resolves.toBe('$12.50');
      await expect(page.getByText('ow•••@example.com').count()).resolves.toBe(1);
      await page.screenshot({ path: `${ARTIFACTS}claim-email-desktop.png`, fullPage: true });
      await page.getByLabel('Code from the email').fill(await mailedCode(owner.accountId));
      await Promise.all([page.waitForURL(init.verification_uri), page.getByRole('button', { name: 'Continue' }).click()]);
      await expectPending(owner);

      await expect(page.getByRole('heading', { name: 'Confirm with a passkey' }).count()).resolves.toBe(1);
      await page.screenshot({ path: `${ARTIFACTS}claim-passkey-desktop.png`, fullPage: true });
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Confirm with a passkey' }).click()]);
      await expect(page.locator('h1').innerText()).resolves.toBe(`Account ${shortId}`);
      await expect(page.locator('#balance').innerText()).resolves.toBe('$12.50');
      await page.screenshot({ path: `${ARTIFACTS}dashboard-desktop.png`, fullPage: true });

      // The agent learns it, and its key works as before.
      const poll = await post('/agent/claim/poll', { claim_token: owner.claimToken });
      expect(poll.status).toBe(200);
      expect(await poll.json()).toEqual({ status: 'claimed', dashboard_url: `${base}/dashboard` });
      const account = await fetch(`${base}/agent/account`, { headers: { Authorization: `Bearer ${owner.apiKey}` } });
      expect(await account.json()).toMatchObject({ claimed: true, unclaimed_funding_remaining_usd: null, expires_unless_funded_at: null });
      // Claimed once, for good.
      expect((await post('/agent/claim/init', { claim_token: owner.claimToken })).status).toBe(400);

      const session = (await context.cookies()).find((cookie) => cookie.name === 'gw_session')!;
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

      // Sign out: the session is revoked, even for a copy of its cookie.
      await Promise.all([page.waitForURL(`${base}/signin?signed_out=1`), page.getByRole('button', { name: 'Sign out' }).click()]);
      const replayed = await fetch(`${base}/dashboard`, { headers: { Cookie: `gw_session=${session.value}` }, redirect: 'manual' });
      expect(replayed.status).toBe(303);
      expect(replayed.headers.get('Location')).toBe('/signin');
      await page.goto(`${base}/dashboard`);
      expect(page.url()).toBe(`${base}/signin`);

      // Back in with the same passkey (discoverable: nothing to type).
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);
      await expect(page.locator('h1').innerText()).resolves.toBe(`Account ${shortId}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone: the code and the account within 390 px', { timeout: 60_000 }, async () => {
    const owner = await agent();
    const init = (await (await post('/agent/claim/init', { claim_token: owner.claimToken })).json()) as { verification_uri: string; verification_uri_complete: string };
    const { context, page, problems } = await openTab(PHONE);
    try {
      await page.goto(init.verification_uri_complete);
      await fitsWidth(page, ['#user-code', 'section', 'button']);
      await page.screenshot({ path: `${ARTIFACTS}claim-code-phone.png`, fullPage: true });
      await Promise.all([page.waitForURL(init.verification_uri), page.getByRole('button', { name: 'Continue' }).click()]);
      await fitsWidth(page, ['dl', 'section', 'button']);
      await page.screenshot({ path: `${ARTIFACTS}claim-passkey-phone.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('refuses a sign-out posted from another site, keeping the session', { timeout: 60_000 }, async () => {
    const owner = await agent();
    const { context, page } = await openTab();
    try {
      await claimInBrowser(page, base, owner.claimToken);
      // A page of another site posts our sign-out form, as a cross-site request forgery would.
      const forged = `<form method="post" action="${base}/dashboard/signout"><input name="csrf" value="${'x'.repeat(32)}"><button>Win a prize</button></form>`;
      await page.route('http://attacker.test/', (route) => route.fulfill({ contentType: 'text/html', body: forged }));
      await page.goto('http://attacker.test/');
      const [refused] = await Promise.all([page.waitForResponse(`${base}/dashboard/signout`), page.getByRole('button', { name: 'Win a prize' }).click()]);
      expect(refused.status()).toBe(400);
      // The browser is shown an error page, not the API's JSON.
      await expect(page.locator('#form-error').getAttribute('data-param')).resolves.toBe('csrf');
      await page.goto(`${base}/dashboard`);
      await expect(page.locator('h1').innerText()).resolves.toBe(`Account ${owner.accountId.slice(0, 8)}`);
    } finally {
      await context.close();
    }
  });
});

async function expectPending(owner: Agent): Promise<void> {
  const res = await post('/agent/claim/poll', { claim_token: owner.claimToken });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: { code: string } }).error.code).toMatch(/^(authorization_pending|slow_down)$/);
}
