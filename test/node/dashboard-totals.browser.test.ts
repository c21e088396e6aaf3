import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { ARTIFACTS, claimInBrowser, fitsWidth, launchBrowser, openTab, PHONE, seriousViolations, shownUsd } from './browser';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * The overview's totals and the keys page's spend, in Debian's Chromium: an agent makes two chats
 * and one that fails upstream, its human claims it with a passkey and reads the numbers. Each page
 * is screenshotted at desktop and phone width (test/artifacts/), fits the phone, and has no
 * serious accessibility violation (axe-core).
 */

const ADMIN = 'dashboard-totals-admin-token-0123456789';
const MODEL = 'openai/gpt-4o-mini';

let upstream: Upstream;
let gateway: RunningGateway;
let browser: Browser;
/** `http://localhost:<port>`: WebAuthn needs a domain for its RP ID, and `127.0.0.1` is none. */
let base: string;

beforeAll(async () => {
  upstream = await startOpenAIUpstream();
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, OPENAI_API_KEY: 'sk-dashboard-totals', OPENAI_BASE_URL: `${upstream.url}/v1` });
  base = gateway.url.replace('127.0.0.1', 'localhost');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await upstream?.stop();
});



/** A chat by `apiKey`; its cost in micro-dollars (`X-Service-Cost`; 0 when it failed). */
async function chat(apiKey: string, content: string): Promise<number> {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}` },
    body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content }] }),
  });
  await res.arrayBuffer();
  return res.status === 200 ? Math.round(Number(res.headers.get('x-service-cost')) * 1e6) : 0;
}

describe('the dashboard totals in a browser', () => {
  it('shows spend and request counts per period on the overview and spend per key, at desktop and phone width', { timeout: 120_000 }, async () => {
    const res = await fetch(`${base}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': '198.51.100.78' }, body: JSON.stringify({ type: 'anonymous' }) });
    expect(res.status).toBe(201);
    const agent = (await res.json()) as { account_id: string; api_key: string; claim_token: string };
    const credited = await fetch(`${base}/admin/accounts/${agent.account_id}/credits`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ amount_usd: '5.00', reason: 'dashboard totals test' }),
    });
    expect(credited.status).toBe(200);
    const spent = (await chat(agent.api_key, 'Say hello')) + (await chat(agent.api_key, 'Say hello again'));
    expect(spent).toBeGreaterThan(0);
    expect(await chat(agent.api_key, 'Fail [500]')).toBe(0);

    const { context, page, problems } = await openTab(browser, { passkey: true });
    try {
      await claimInBrowser(page, base, agent.claim_token);
      const cells = (window: string) => page.locator(`#totals tr[data-window="${window}"] td`).allInnerTexts();
      for (const window of ['today', 'month', 'last30Days']) await expect(cells(window)).resolves.toEqual([shownUsd(spent), '3', '2', '1']);
      await expect(page.locator('#chat-curl').innerText()).resolves.toContain(`curl ${base}/v1/chat/completions`);
      expect(await page.locator('#chat-curl').innerText()).not.toContain(agent.api_key);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-totals-desktop.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      await Promise.all([page.waitForURL(`${base}/dashboard/keys`), page.getByRole('link', { name: 'API keys' }).click()]);
      const row = page.locator('#keys tbody tr').first();
      await expect(row.locator('td[data-label="Spend, 30 days"]').innerText()).resolves.toBe(shownUsd(spent));
      await expect(row.locator('td[data-label="Spend, total"]').innerText()).resolves.toBe(shownUsd(spent));
      await expect(row.locator('td[data-label="Last used"]').innerText()).resolves.toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-keys-spend-desktop.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);

      await page.setViewportSize(PHONE);
      await page.goto(`${base}/dashboard`);
      await fitsWidth(page, ['h1', '#totals', '#chat-curl']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-totals-phone.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${base}/dashboard/keys`);
      await fitsWidth(page, ['h1', '#keys']);
      await page.screenshot({ path: `${ARTIFACTS}dashboard-keys-spend-phone.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
