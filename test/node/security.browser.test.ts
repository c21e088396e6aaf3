import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, claimInBrowser, fitsWidth, launchBrowser, openTab, PHONE } from './browser';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * The dashboard's security page as its human uses it, in Debian's Chromium with a virtual passkey
 * authenticator: after claiming, the person finds the page in the navigation, sees their passkey
 * and this browser's session, signs out everywhere and back in, then removes the passkey, after
 * which it no longer signs in. Screenshots at desktop and phone width go to test/artifacts/.
 */

const ADMIN = 'security-browser-admin-token-0123456789';

let gateway: RunningGateway;
let browser: Browser;
/** `http://localhost:<port>`: WebAuthn needs a domain for its RP ID, and `127.0.0.1` is none. */
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

describe('the security page in a browser', () => {
  it('lists the passkey and session, signs out everywhere, and removes the passkey', { timeout: 180_000 }, async () => {
    const res = await fetch(`${base}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': '198.51.100.91' }, body: JSON.stringify({ type: 'anonymous' }) });
    expect(res.status).toBe(201);
    const agent = (await res.json()) as { account_id: string; claim_token: string };
    const { context, page, problems } = await openTab(browser, { passkey: true });
    try {
      await claimInBrowser(page, base, agent.claim_token);
      await Promise.all([page.waitForURL(`${base}/dashboard/security`), page.getByRole('link', { name: 'Security' }).click()]);
      await expect(page.locator('#passkeys tbody tr').count()).resolves.toBe(1);
      await expect(page.locator('#sessions tbody tr').count()).resolves.toBe(1);
      await expect(page.locator('#sessions').innerText()).resolves.toContain('this browser');
      await page.screenshot({ path: `${ARTIFACTS}dashboard-security-desktop.png`, fullPage: true });

      // Sign out everywhere: this session too; the passkey signs in again.
      await Promise.all([page.waitForURL(`${base}/signin?signed_out=1`), page.getByRole('button', { name: 'Sign out everywhere' }).click()]);
      await page.goto(`${base}/dashboard/security`);
      expect(page.url()).toBe(`${base}/signin`);
      await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Sign in with a passkey' }).click()]);

      // Remove the passkey: signing in with it is then refused.
      await page.goto(`${base}/dashboard/security`);
      await page.setViewportSize(PHONE);
      await fitsWidth(page, ['#passkeys', '#sessions', 'form[action="/dashboard/security/signout-everywhere"] button']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-security-phone.png`, fullPage: true });
      await Promise.all([page.waitForURL(/notice=passkey-removed$/), page.locator('#passkeys button').click()]);
      await expect(page.locator('#notice').innerText()).resolves.toContain('no longer signs in');
      await expect(page.locator('#passkeys tbody tr').count()).resolves.toBe(0);
      await Promise.all([page.waitForURL(`${base}/signin?signed_out=1`), page.getByRole('button', { name: 'Sign out', exact: true }).first().click()]);
      await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
      await page.locator('#passkey-status.error').waitFor();
      await expect(page.locator('#passkey-status').innerText()).resolves.toContain('not registered');
      expect(page.url()).toBe(`${base}/signin?signed_out=1`);
      // The passkey-status error is the page's own message, not a console error.
      expect(problems.filter((problem) => !problem.includes('/signin/verify'))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
