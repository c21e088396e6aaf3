import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, fitsWidth, launchBrowser, openTab, PHONE, seriousViolations } from './browser';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * What a person sees first, in Debian's Chromium against the gateway started as the README says
 * with no provider key and no payment rail: the landing page, the model catalog with a filter
 * used, and the fund page without rails. Each is screenshotted (test/artifacts/), fits a phone's
 * width, meets its CSP and has no serious accessibility violation (axe-core).
 */


let gateway: RunningGateway;
let browser: Browser;

beforeAll(async () => {
  gateway = await startGateway({ ADMIN_TOKEN: 'front-pages-admin-token-0123456789' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
});


describe('the first pages a person sees', () => {
  it('the landing page shows the base URL and each client setup, at desktop and phone width', { timeout: 60_000 }, async () => {
    for (const [name, viewport] of [['desktop', undefined], ['phone', PHONE]] as const) {
      const { context, page, problems } = await openTab(browser, viewport ? { viewport } : {});
      try {
        await page.goto(`${gateway.url}/`);
        await expect(page.locator('h1').innerText()).resolves.toBe('AI gateway');
        await expect(page.locator('#base-url').innerText()).resolves.toBe(gateway.url);
        await expect(page.locator('#claude-code').innerText()).resolves.toBe(`ANTHROPIC_BASE_URL=${gateway.url} ANTHROPIC_API_KEY=$GATEWAY_API_KEY claude`);
        await expect(page.locator('#codex').innerText()).resolves.toContain(`base_url = "${gateway.url}/v1"`);
        await page.screenshot({ path: `${ARTIFACTS}landing-${name}.png`, fullPage: true });
        if (viewport) await fitsWidth(page, ['h1', '#base-url', 'nav']);
        expect(await seriousViolations(page)).toEqual([]);
        // The catalog is one click away.
        await page.getByRole('link', { name: 'Model catalog' }).click();
        await expect(page.locator('h1').innerText()).resolves.toBe('Models');
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('the model catalog filters by a search and a type with its form', { timeout: 60_000 }, async () => {
    const { context, page, problems } = await openTab(browser);
    try {
      await page.goto(`${gateway.url}/models`);
      const total = await page.locator('#models tbody tr').count();
      expect(total).toBeGreaterThan(100);
      await expect(page.locator('#count').innerText()).resolves.toBe(`${total} models`);
      await page.locator('#q').fill('claude');
      await page.locator('#type').selectOption('chat');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page.waitForURL(/\/models\?q=claude&type=chat$/);
      const ids = await page.locator('#models tbody tr td[data-label="Model"] code').allInnerTexts();
      expect(ids.length).toBeGreaterThan(0);
      expect(ids.every((id) => id.startsWith('anthropic/claude'))).toBe(true);
      await expect(page.locator('#count').innerText()).resolves.toBe(`${ids.length} of ${total} models`);
      // No provider key: every endpoint says so.
      await expect(page.locator('#models tbody tr').first().innerText()).resolves.toContain('not configured');
      await page.screenshot({ path: `${ARTIFACTS}models-filtered.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.setViewportSize(PHONE);
      await fitsWidth(page, ['h1', '#q', '#models']);
      await page.screenshot({ path: `${ARTIFACTS}models-phone.png`, fullPage: false });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the fund page without a payment rail says what to do next', { timeout: 60_000 }, async () => {
    const registered = await fetch(`${gateway.url}/agent/register`, { method: 'POST', body: JSON.stringify({ type: 'anonymous' }) });
    expect(registered.status).toBe(201);
    const { fund_url: fundUrl } = (await registered.json()) as { fund_url: string };
    const { context, page, problems } = await openTab(browser, { viewport: PHONE });
    try {
      await page.goto(fundUrl);
      await expect(page.locator('#no-rails h2').innerText()).resolves.toBe('No payment method is set up here yet');
      await expect(page.locator('#no-rails').innerText()).resolves.toContain('STRIPE_SECRET_KEY');
      await expect(page.locator('#balance').innerText()).resolves.toBe('$0.00');
      await fitsWidth(page, ['h1', '#no-rails']);
      await page.screenshot({ path: `${ARTIFACTS}fund-no-rails.png`, fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
