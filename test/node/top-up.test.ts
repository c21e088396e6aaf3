import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { startStripeUpstream, type StripeUpstream } from '../upstreams/stripe';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Auto top-up as a person and an agent meet it, against `npm start`: an agent's account claimed in
 * Debian's Chromium with a virtual passkey, a card saved through Stripe Checkout (the local
 * simulator) from the dashboard's top-up page, the rule turned on there, and chat requests from
 * the agent's key (the local OpenAI upstream) spending the balance past the threshold. Stripe's
 * side is read from the simulator: which PaymentIntents were made, with what key and card.
 */

const ADMIN = 'top-up-admin-token-0123456789';
const STRIPE_KEY = 'sk_test_top_up_0123456789';
const WEBHOOK_SECRET = 'whsec_top_up_test_secret_0123456789';
const ARTIFACTS = new URL('../artifacts/', import.meta.url).pathname;

let stripe: StripeUpstream;
let openai: Upstream;
let gateway: RunningGateway;
let browser: Browser;
/** `http://localhost:<port>`: WebAuthn needs a domain for its RP ID. */
let base: string;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  [stripe, openai] = await Promise.all([startStripeUpstream(STRIPE_KEY), startOpenAIUpstream()]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: 'sk-top-up-test',
    OPENAI_BASE_URL: openai.url,
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
  stripe.setWebhook(`${gateway.url}/webhooks/stripe`, WEBHOOK_SECRET);
  base = gateway.url.replace('127.0.0.1', 'localhost');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await gateway?.stop();
  await stripe?.stop();
  await openai?.stop();
});

interface Agent {
  accountId: string;
  apiKey: string;
  claimToken: string;
}

async function agent(): Promise<Agent> {
  const res = await fetch(`${base}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': '192.0.2.10' }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { account_id: string; api_key: string; claim_token: string };
  return { accountId: body.account_id, apiKey: body.api_key, claimToken: body.claim_token };
}

/** Micro-dollars of a 6-digit USD string. */
const micros = (usd: string) => Math.round(Number(usd) * 1e6);

async function balance(who: Agent): Promise<number> {
  const res = await fetch(`${base}/agent/account`, { headers: { Authorization: `Bearer ${who.apiKey}` } });
  return micros(((await res.json()) as { balance_usd: string }).balance_usd);
}

/** One chat completion from the agent's key; what it cost, in micro-dollars. */
async function chat(who: Agent): Promise<number> {
  const res = await fetch(`${base}/v1/chat/completions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${who.apiKey}` },
    body: JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 50 }),
  });
  expect(res.status).toBe(200);
  await res.text();
  return micros(res.headers.get('X-Service-Cost')!);
}

async function spend(who: Agent, requests: number): Promise<number> {
  const costs = await Promise.all(Array.from({ length: requests }, () => chat(who)));
  return costs.reduce((sum, cost) => sum + cost, 0);
}

/** The PaymentIntents auto top-up made (Checkout's own carry no `top_up` metadata). */
const topUpIntents = () => [...stripe.paymentIntents.values()].filter((intent) => intent.metadata.top_up !== undefined);

async function openTab(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.exposeFunction('reportCspViolation', (violation: string) => problems.push(`csp: ${violation}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation: (text: string) => void }).reportCspViolation;
      void report(`${event.violatedDirective} blocked ${event.blockedURI} on ${event.documentURI}`);
    });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { context, page, problems };
}

/** The agent starts a claim; the person confirms it with a passkey and lands on the dashboard. */
async function claimInBrowser(page: Page, owner: Agent): Promise<void> {
  const init = await fetch(`${base}/agent/claim/init`, { method: 'POST', body: JSON.stringify({ claim_token: owner.claimToken }) });
  const { verification_uri: uri, verification_uri_complete: complete } = (await init.json()) as { verification_uri: string; verification_uri_complete: string };
  await page.goto(complete);
  await Promise.all([page.waitForURL(uri), page.getByRole('button', { name: 'Continue' }).click()]);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.getByRole('button', { name: 'Confirm with a passkey' }).click()]);
}

async function fitsPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(width.scroll).toBeLessThanOrEqual(width.client);
  for (const selector of ['#top-up-failure', '#saved-card', 'button']) {
    const box = await page.locator(selector).first().boundingBox();
    expect(box!.x + box!.width, selector).toBeLessThanOrEqual(390);
  }
}

describe('auto top-up', () => {
  it('saves a card through Checkout, charges it once when chat spending crosses the threshold, and stops for good on a declined card', { timeout: 180_000 }, async () => {
    const owner = await agent();
    const { context, page, problems } = await openTab();
    try {
      await claimInBrowser(page, owner);
      await page.goto(`${base}/dashboard/top-up`);
      await expect(page.locator('#saved-card').innerText()).resolves.toBe('No card is saved yet.');
      await expect(page.getByRole('button', { name: 'Turn on auto top-up' }).isDisabled()).resolves.toBe(true);

      // Saving a card: $20 paid at Checkout, the card kept for charges without its holder.
      await page.getByLabel('Pay now to save a card (USD)').fill('20');
      await Promise.all([page.waitForURL(`${stripe.url}/c/pay/**`), page.getByRole('button', { name: 'Save a card' }).click()]);
      await Promise.all([page.waitForURL(`${base}/dashboard/top-up?card=saved`), page.getByRole('button', { name: 'Pay' }).click()]);
      await expect(page.locator('#saved-card').innerText()).resolves.toBe('Visa •••• 4242 is saved for auto top-up.');
      await expect(page.locator('#balance').innerText()).resolves.toBe('$20.00');
      const created = stripe.requests.find((request) => request.method === 'POST' && request.path === '/v1/checkout/sessions')!;
      expect(created.body).toMatchObject({ customer_creation: 'always', payment_intent_data: { setup_future_usage: 'off_session' }, metadata: { account_id: owner.accountId } });
      const session = [...stripe.sessions.values()].at(-1)!;
      const card = [...stripe.paymentMethods.values()].find((method) => method.customer === session.customer)!;
      expect(card).toBeDefined();

      // The rule: below $20, add $10. The first chat request crosses it.
      await page.getByLabel(/When the balance falls below/).fill('20');
      await page.getByLabel(/Add this amount/).fill('10');
      await Promise.all([page.waitForURL(`${base}/dashboard/top-up?done=on`), page.getByRole('button', { name: 'Turn on auto top-up' }).click()]);
      await expect(page.locator('#top-up-status').innerText()).resolves.toBe('On: when a charge leaves the balance below $20.00, $10.00 is charged to the saved card.');

      let spent = await spend(owner, 6);
      await vi.waitUntil(async () => (await balance(owner)) > 25_000_000, { timeout: 15_000, interval: 200 });
      spent += await spend(owner, 4); // above the threshold again: nothing more
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(topUpIntents()).toHaveLength(1);
      const [charged] = topUpIntents();
      expect(charged).toMatchObject({ status: 'succeeded', amount: 1000, currency: 'usd', customer: session.customer, payment_method: card.id, metadata: { account_id: owner.accountId, top_up: '1' } });
      const sent = stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents');
      expect(sent.map((request) => request.headers['idempotency-key'])).toEqual([`topup:${owner.accountId}:1`]);
      expect(sent[0]!.body).toMatchObject({ off_session: 'true', confirm: 'true' });
      // Exactly the amount, once: $20 paid, $10 topped up, minus what the requests cost.
      expect(await balance(owner)).toBe(30_000_000 - spent);
      const ledger = await fetch(`${base}/admin/accounts/${owner.accountId}/ledger`, { headers: { Authorization: `Bearer ${ADMIN}` } });
      const credits = ((await ledger.json()) as { data: { kind: string; amount_usd: string; source: string | null; note: string | null }[] }).data.filter((row) => row.kind === 'credit');
      expect(credits.map((row) => [row.amount_usd, row.source, row.note?.includes(charged!.id) ?? false])).toEqual([
        ['10.000000', 'card', true],
        ['20.000000', 'card', false],
      ]);
      await page.goto(`${base}/dashboard/top-up`);
      await expect(page.locator('#top-ups tbody tr').first().innerText()).resolves.toContain('charged');
      await page.screenshot({ path: `${ARTIFACTS}top-up-desktop.png`, fullPage: true });

      // The issuer now declines the card. A higher threshold makes the next request cross it.
      stripe.setDeclining(card.id);
      await page.getByLabel(/When the balance falls below/).fill('40');
      await Promise.all([page.waitForURL(`${base}/dashboard/top-up?done=on`), page.getByRole('button', { name: 'Save changes' }).click()]);
      const before = await balance(owner);
      spent = await spend(owner, 3);
      await vi.waitUntil(() => topUpIntents().length === 2, { timeout: 15_000, interval: 200 });
      expect(topUpIntents()[1]).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
      await vi.waitUntil(
        async () => {
          await page.goto(`${base}/dashboard/top-up`);
          return (await page.locator('#top-up-failure').count()) === 1;
        },
        { timeout: 15_000, interval: 300 },
      );
      const failure = await page.locator('#top-up-failure').innerText();
      expect(failure).toContain('Auto top-up stopped');
      expect(failure).toContain('Your card was declined. (card_declined)');
      expect(failure).toContain('What to do:');
      await expect(page.locator('#top-up-status').innerText()).resolves.toBe('Off.');
      await page.screenshot({ path: `${ARTIFACTS}top-up-failure-desktop.png`, fullPage: true });
      await fitsPhone(page);
      await page.screenshot({ path: `${ARTIFACTS}top-up-failure-phone.png`, fullPage: true });

      // Stopped until the human acts: more spending below the threshold charges nothing, and nothing is retried.
      spent += await spend(owner, 3);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(topUpIntents()).toHaveLength(2);
      expect(stripe.requests.filter((request) => request.method === 'POST' && request.path === '/v1/payment_intents').map((request) => request.headers['idempotency-key'])).toEqual([
        `topup:${owner.accountId}:1`,
        `topup:${owner.accountId}:2`,
      ]);
      expect(await balance(owner)).toBe(before - spent);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
