import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type Chain } from '../upstreams/anvil';
import { startStripeUpstream, type StripeUpstream } from '../upstreams/stripe';
import { ARTIFACTS, fitsWidth, launchBrowser, openTab as open, PHONE, type Tab } from './browser';
import { CLOSED_PORT, startGateway, type RunningGateway } from './gateway-process';

/**
 * The fund page as a person uses it, in Debian's Chromium: the account's short id and balance,
 * a card payment through the (simulated) Stripe Checkout page and back, the balance rising on the
 * open page without a reload, and the USDC deposit details with their QR code. Screenshots of the
 * page with the deposit details go to test/artifacts/.
 */

const ADMIN = 'fund-page-admin-token-0123456789';
const STRIPE_KEY = 'sk_test_fund_page_0123456789';
const WEBHOOK_SECRET = 'whsec_fund_page_test_secret_0123456789';

let stripe: StripeUpstream;
let chain: Chain;
let gateway: RunningGateway;
let browser: Browser;
let webhookUrl: string;

beforeAll(async () => {
  [stripe, chain] = await Promise.all([startStripeUpstream(STRIPE_KEY), startChain()]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
    BASE_RPC_URL: chain.rpcUrl,
    USDC_CONTRACT: chain.token,
    USDC_DEPOSIT_ADDRESS: chain.accounts[5]!,
    USDC_CONFIRMATIONS: '1',
  });
  webhookUrl = `${gateway.url}/webhooks/stripe`;
  stripe.setWebhook(webhookUrl, WEBHOOK_SECRET);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await chain?.stop();
  await stripe?.stop();
});

let ipSequence = 0;

async function register(): Promise<{ accountId: string; fundUrl: string }> {
  ipSequence++;
  const res = await fetch(`${gateway.url}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': `198.51.100.${ipSequence}` }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { account_id: string; fund_url: string };
  return { accountId: body.account_id, fundUrl: body.fund_url };
}

/** A tab that records problems of the gateway's pages only: the Stripe simulator's page is a stand-in (it answers 401 for /favicon.ico). */
const openTab = (viewport?: { width: number; height: number }): Promise<Tab> => open(browser, { viewport, ignoreConsoleFrom: stripe.url });

describe('the fund page in a browser', () => {
  it('takes a card payment, shows the credit without a reload, and gives USDC deposit details', { timeout: 120_000 }, async () => {
    const { accountId, fundUrl } = await register();
    const { context, page, problems } = await openTab();
    try {
      await page.goto(fundUrl);
      await expect(page.title()).resolves.toBe(`Fund account ${accountId.slice(0, 8)}`);
      await expect(page.locator('h1').innerText()).resolves.toBe(`Fund account ${accountId.slice(0, 8)}`);
      await expect(page.locator('#balance').innerText()).resolves.toBe('$0.00');

      // Keyboard: Tab from the top reaches the card amount, then its button.
      await page.locator('body').focus();
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('card-amount');
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Pay with card');
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('usdc-amount');

      // Stripe's webhook is down for now (nothing listens there): the payment goes through, its
      // event fails to arrive, and Stripe retries later, so the person is back before the credit.
      stripe.setWebhook(`http://127.0.0.1:${CLOSED_PORT}/webhooks/stripe`, WEBHOOK_SECRET);
      await page.getByLabel('Amount in US dollars', { exact: true }).fill('25');
      await Promise.all([page.waitForURL(`${stripe.url}/c/pay/cs_*`), page.getByRole('button', { name: 'Pay with card' }).click()]);
      await expect(page.getByTestId('amount').innerText()).resolves.toBe('$25.00');
      const sessionId = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
      await Promise.all([page.waitForURL(`${fundUrl}?paid=1`), page.getByRole('button', { name: 'Pay', exact: true }).click()]);
      expect(stripe.sessions.get(sessionId)).toMatchObject({ status: 'complete', payment_status: 'paid', amount_total: 2500 });
      expect(stripe.deliveries.filter((delivery) => delivery.sessionId === sessionId).map((delivery) => delivery.status)).toEqual([0]);

      await expect(page.locator('#notice').innerText()).resolves.toContain('Thank you: the payment went through.');
      await expect(page.locator('#balance').innerText()).resolves.toBe('$0.00');
      // A mark on this document: it survives only if the page is never reloaded.
      await page.evaluate(() => document.documentElement.setAttribute('data-still-here', 'yes'));
      let navigations = 0;
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });

      stripe.setWebhook(webhookUrl, WEBHOOK_SECRET);
      const retried = await stripe.deliver(sessionId);
      expect(retried.status).toBe(200);
      const creditedAt = Date.now();
      await expect.poll(() => page.locator('#balance').innerText(), { timeout: 15_000, interval: 200 }).toBe('$25.00');
      // The page polls every 4 s.
      expect(Date.now() - creditedAt).toBeLessThan(9_000);
      await expect(page.locator('#notice').innerText()).resolves.toBe('Credit received: +$25.00.');
      expect(navigations).toBe(0);
      await expect(page.locator('html').getAttribute('data-still-here')).resolves.toBe('yes');

      // USDC: an exact amount to send, the address and its QR code.
      await page.getByLabel('Amount in whole US dollars').fill('10');
      await Promise.all([page.waitForURL(`${fundUrl}/usdc`), page.getByRole('button', { name: 'Show deposit details' }).click()]);
      await checkDepositDetails(page);
      await expect(page.locator('#balance').innerText()).resolves.toBe('$25.00');
      await page.screenshot({ path: `${ARTIFACTS}fund-page-usdc-desktop.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('fits a phone: the deposit details, address and QR code within 390 px', { timeout: 60_000 }, async () => {
    const { fundUrl } = await register();
    const { context, page, problems } = await openTab(PHONE);
    try {
      await page.goto(fundUrl);
      // Keyboard only: Tab to the USDC amount, type, and submit with Enter.
      await page.locator('body').focus();
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('usdc-amount');
      await page.keyboard.type('10');
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Show deposit details');
      await Promise.all([page.waitForURL(`${fundUrl}/usdc`), page.keyboard.press('Enter')]);
      await checkDepositDetails(page);

      await fitsWidth(page, ['#deposit-address', '.deposit dl', '.qr svg', 'section']);
      await page.screenshot({ path: `${ARTIFACTS}fund-page-usdc-phone.png`, fullPage: true });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

async function checkDepositDetails(page: Page): Promise<void> {
  const amount = await page.locator('#amount-usdc').innerText();
  expect(amount).toMatch(/^10\.\d{6} USDC$/);
  expect(amount).not.toBe('10.000000 USDC');
  await expect(page.locator('#deposit-address').innerText()).resolves.toBe(chain.accounts[5]);
  await expect(page.locator('.deposit').innerText()).resolves.toContain(chain.token);
  const qr = page.getByRole('img', { name: 'QR code of the USDC transfer' });
  await expect(qr.evaluate((svg) => svg.tagName.toLowerCase())).resolves.toBe('svg');
  const box = await qr.boundingBox();
  expect(box!.width).toBeGreaterThanOrEqual(150);
  expect(box!.height).toBe(box!.width);
}
