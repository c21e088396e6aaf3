import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeUpstream, type CheckoutSession, type StripeUpstream } from '../upstreams/stripe';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Card funding as a payer and Stripe meet it: the no-login fund page driven with plain HTTP (its
 * CSRF token and cookie, form posts), Stripe Checkout and its webhooks played by the local
 * simulator, and the result read through the agent and operator APIs.
 */

const ADMIN = 'funding-card-admin-token-0123456789';
const STRIPE_KEY = 'sk_test_funding_card_0123456789';
const WEBHOOK_SECRET = 'whsec_funding_card_test_secret_0123456789';
let stripe: StripeUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  stripe = await startStripeUpstream(STRIPE_KEY);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    STRIPE_SECRET_KEY: STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
  stripe.setWebhook(`${gateway.url}/webhooks/stripe`, WEBHOOK_SECRET);
});
afterAll(async () => {
  await gateway?.stop();
  await stripe?.stop();
});

interface Registered {
  apiKey: string;
  accountId: string;
  fundUrl: string;
  expiresUnlessFundedAt: string | null;
  /** The documentation-range address this payer uses, so per-IP limits never mix tests. */
  ip: string;
}

interface AccountView {
  balance_usd: string;
  expires_unless_funded_at: string | null;
  unclaimed_funding_remaining_usd: string | null;
}

interface LedgerRow {
  kind: string;
  amount_usd: string;
  source: string | null;
  note: string | null;
}

interface CardPayment {
  id: string;
  amount_usd: string;
  status: string;
  checkout_session: string | null;
  paid_at: string | null;
}

interface AdminAccount extends AccountView {
  funding: { card_payments: CardPayment[] };
}

interface ErrorEnvelope {
  error: { code: string; message: string; type: string; param?: string };
}

let ipSequence = 0;

async function register(): Promise<Registered> {
  ipSequence++;
  const ip = `203.0.113.${ipSequence}`;
  const res = await fetch(`${gateway.url}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { api_key: string; account_id: string; fund_url: string; expires_unless_funded_at: string | null };
  return { apiKey: body.api_key, accountId: body.account_id, fundUrl: body.fund_url, expiresUnlessFundedAt: body.expires_unless_funded_at, ip };
}

async function agentAccount(who: Registered): Promise<AccountView> {
  const res = await fetch(`${gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${who.apiKey}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as AccountView;
}

async function adminAccount(who: Registered): Promise<AdminAccount> {
  const res = await fetch(`${gateway.url}/admin/accounts/${who.accountId}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as AdminAccount;
}

async function ledger(who: Registered): Promise<LedgerRow[]> {
  const res = await fetch(`${gateway.url}/admin/accounts/${who.accountId}/ledger`, { headers: { Authorization: `Bearer ${ADMIN}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: LedgerRow[] }).data;
}

interface FundPage {
  status: number;
  headers: Headers;
  html: string;
  /** The hidden `csrf` input of the page's forms. */
  csrf: string;
  /** `csrf=<value>` from the page's Set-Cookie, as a browser sends it back. */
  cookie: string;
}

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&').replace(/&quot;/g, '"');

async function openFundPage(who: Registered): Promise<FundPage> {
  const res = await fetch(who.fundUrl, { headers: { 'CF-Connecting-IP': who.ip } });
  const html = await res.text();
  const input = /<input[^>]*name="csrf"[^>]*>/.exec(html)?.[0] ?? '';
  const csrf = /value="([^"]*)"/.exec(input)?.[1] ?? '';
  const cookie = res.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('csrf=')) ?? '';
  return { status: res.status, headers: res.headers, html, csrf, cookie };
}

interface CardPost {
  csrf?: string;
  cookie?: string;
  origin?: string;
  /** `Sec-Fetch-Site`, as browsers send it. */
  site?: string;
}

/** Submits the card form as a browser would: form-urlencoded, the cookie, our Origin, no redirect following. */
async function postCard(who: Registered, page: FundPage, amount: string, override: CardPost = {}): Promise<Response> {
  const form = new URLSearchParams({ amount_usd: amount });
  const csrf = 'csrf' in override ? override.csrf : page.csrf;
  if (csrf !== undefined) form.set('csrf', csrf);
  const cookie = 'cookie' in override ? override.cookie : page.cookie;
  const origin = 'origin' in override ? override.origin : gateway.url;
  return fetch(`${who.fundUrl}/card`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'CF-Connecting-IP': who.ip,
      ...(cookie ? { Cookie: cookie } : {}),
      ...(origin ? { Origin: origin } : {}),
      ...(override.site ? { 'Sec-Fetch-Site': override.site } : {}),
    },
    body: form.toString(),
    redirect: 'manual',
  });
}

/** Starts a card payment and returns its Checkout Session (the simulator's live object). */
async function startCardPayment(who: Registered, amount: string): Promise<CheckoutSession> {
  const page = await openFundPage(who);
  const res = await postCard(who, page, amount);
  const location = res.headers.get('location') ?? '';
  expect({ status: res.status, location }).toMatchObject({ status: 303, location: expect.stringMatching(new RegExp(`^${stripe.url}/c/pay/cs_`)) });
  const id = decodeURIComponent(new URL(location).pathname.split('/').at(-1)!);
  const session = stripe.sessions.get(id);
  expect(session).toBeDefined();
  return session!;
}

/** The visible text of an HTML fragment, entities decoded, whitespace collapsed. */
const text = (html: string) => unescapeHtml(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');

const webhook = (payload: string, headers: Record<string, string>) =>
  fetch(`${gateway.url}/webhooks/stripe`, { method: 'POST', headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers }, body: payload });

describe('card funding through Stripe Checkout', () => {
  it('credits a completed session exactly once, even when its webhook is delivered three more times at once', async () => {
    const who = await register();
    expect(who.expiresUnlessFundedAt).not.toBeNull();
    expect(who.fundUrl.startsWith(`${gateway.url}/fund/`)).toBe(true);

    const session = await startCardPayment(who, '25');
    expect(session).toMatchObject({ amount_total: 2500, currency: 'usd', status: 'open', client_reference_id: who.accountId, metadata: { account_id: who.accountId } });
    expect(session.success_url).toBe(`${who.fundUrl}?paid=1`);

    const deliveredBefore = stripe.deliveries.length;
    // The Pay button's delivery and three redeliveries of the same event, all in flight at once
    // (`complete` records the event before it posts it, so `deliver` finds it at once).
    const [, ...again] = await Promise.all([stripe.complete(session.id), ...[1, 2, 3].map(() => stripe.deliver(session.id))]);
    const deliveries = stripe.deliveries.slice(deliveredBefore);
    expect(deliveries.map((delivery) => [delivery.type, delivery.status])).toEqual(Array.from({ length: 4 }, () => ['checkout.session.completed', 200]));
    expect(new Set(deliveries.map((delivery) => delivery.eventId)).size).toBe(1);
    // One of the four credited; the others were acknowledged without effect.
    expect(deliveries.map((delivery) => (JSON.parse(delivery.responseBody) as { credited?: boolean }).credited).filter(Boolean)).toHaveLength(1);
    expect(again).toHaveLength(3);

    expect(await agentAccount(who)).toMatchObject({ balance_usd: '25.000000', expires_unless_funded_at: null, unclaimed_funding_remaining_usd: '475.000000' });
    const credits = (await ledger(who)).filter((row) => row.kind === 'credit');
    expect(credits).toEqual([expect.objectContaining({ kind: 'credit', amount_usd: '25.000000', source: 'card' })]);
    expect(credits[0]!.note).toContain(session.id);

    const view = await adminAccount(who);
    expect(view.expires_unless_funded_at).toBeNull();
    expect(view.funding.card_payments).toEqual([expect.objectContaining({ amount_usd: '25.000000', status: 'paid', checkout_session: session.id, paid_at: expect.any(String) })]);
  });

  it('refuses a webhook with a bad, a missing or an hour-old signature with 400 and credits nothing', async () => {
    const who = await register();
    const session = await startCardPayment(who, '40');
    // Paid at Stripe, but its event never reaches the gateway: only the test's forged ones do.
    const paid = await stripe.complete(session.id, { deliver: false });

    const forged = stripe.signedEvent('checkout.session.completed', paid, { secret: 'whsec_someone_else_entirely' });
    const unsigned = stripe.signedEvent('checkout.session.completed', paid);
    const stale = stripe.signedEvent('checkout.session.completed', paid, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const answers = [
      await webhook(forged.payload, { 'Stripe-Signature': forged.header }),
      await webhook(unsigned.payload, {}),
      await webhook(stale.payload, { 'Stripe-Signature': stale.header }),
      // A good signature over another body.
      await webhook(unsigned.payload.replace('"amount_total": 4000', '"amount_total": 400000'), { 'Stripe-Signature': unsigned.header }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      const body = (await res.json()) as ErrorEnvelope;
      expect(body.error).toMatchObject({ code: 'invalid_request', type: 'invalid_request_error', param: 'Stripe-Signature' });
      expect(body.error.message).toMatch(/signature/i);
    }

    expect(await agentAccount(who)).toMatchObject({ balance_usd: '0.000000', expires_unless_funded_at: who.expiresUnlessFundedAt });
    expect((await ledger(who)).filter((row) => row.kind === 'credit')).toEqual([]);
    expect((await adminAccount(who)).funding.card_payments).toEqual([expect.objectContaining({ status: 'open', paid_at: null })]);

    // The same event, signed now with the right secret, is what credits.
    const genuine = stripe.signedEvent('checkout.session.completed', paid);
    expect((await webhook(genuine.payload, { 'Stripe-Signature': genuine.header })).status).toBe(200);
    expect((await agentAccount(who)).balance_usd).toBe('40.000000');
  });

  it('holds an unclaimed account to $5 to $250 a payment and $500 in all, counting payments still open', async () => {
    const who = await register();
    const page = await openFundPage(who);
    const sessionsBefore = stripe.sessions.size;

    const tooSmall = await postCard(who, page, '4.99');
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.headers.get('content-type')).toMatch(/^text\/html/);
    const tooSmallText = text(await tooSmall.text());
    expect(tooSmallText).toContain('The minimum card payment is $5.');
    const tooLarge = await postCard(who, page, '250.01');
    expect(tooLarge.status).toBe(400);
    expect(text(await tooLarge.text())).toContain('A card payment can be at most $250 while the account is unclaimed.');
    expect(stripe.sessions.size).toBe(sessionsBefore);

    const first = await startCardPayment(who, '250');
    expect(first.amount_total).toBe(25_000);
    const second = await startCardPayment(who, '150');
    // 250 + 150 open, so a third 150 would make 550.
    const third = await postCard(who, page, '150');
    expect(third.status).toBe(400);
    const thirdText = text(await third.text());
    expect(thirdText).toContain('An unclaimed account can receive at most $500 by card');
    expect(thirdText).toContain('$100.00 is left');
    expect(stripe.sessions.size).toBe(sessionsBefore + 2);
    expect((await adminAccount(who)).funding.card_payments.map((payment) => [payment.amount_usd, payment.status])).toEqual([
      ['150.000000', 'open'],
      ['250.000000', 'open'],
    ]);

    await stripe.complete(first.id);
    await stripe.complete(second.id);
    expect(await agentAccount(who)).toMatchObject({ balance_usd: '400.000000', unclaimed_funding_remaining_usd: '100.000000' });
    const after = await openFundPage(who);
    expect(text(after.html)).toContain('$100.00 left of the $500');
    expect((await postCard(who, after, '100.01')).status).toBe(400);
  });

  it('refuses a card form posted without its token or from another origin, and starts no session', async () => {
    const who = await register();
    const page = await openFundPage(who);
    expect(page.csrf).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(page.cookie).toBe(`csrf=${page.csrf}`);
    const sessionsBefore = stripe.sessions.size;

    const attempts = [
      await postCard(who, page, '25', { csrf: undefined }),
      await postCard(who, page, '25', { origin: 'https://attacker.example' }),
      await postCard(who, page, '25', { cookie: undefined }),
      await postCard(who, page, '25', { csrf: 'A'.repeat(32) }),
      // What a browser sends for a form on another site whose page has `Referrer-Policy: no-referrer`.
      await postCard(who, page, '25', { origin: 'null', site: 'cross-site' }),
      await postCard(who, page, '25', { site: 'same-site' }),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorEnvelope).error).toMatchObject({ code: 'invalid_request', param: 'csrf' });
    }
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect((await adminAccount(who)).funding.card_payments).toEqual([]);
  });

  it('stops counting an open payment against the cap once its session expires', async () => {
    const who = await register();
    const first = await startCardPayment(who, '250');
    await startCardPayment(who, '250');
    const page = await openFundPage(who);
    const full = await postCard(who, page, '5');
    expect(full.status).toBe(400);
    expect(text(await full.text())).toContain('$0.00 is left');

    const deliveredBefore = stripe.deliveries.length;
    await stripe.expire(first.id);
    expect(stripe.deliveries.slice(deliveredBefore).map((delivery) => [delivery.type, delivery.status])).toEqual([['checkout.session.expired', 200]]);
    expect((await adminAccount(who)).funding.card_payments.map((payment) => [payment.amount_usd, payment.status])).toEqual([
      ['250.000000', 'open'],
      ['250.000000', 'expired'],
    ]);

    const freed = await startCardPayment(who, '250');
    expect(freed.amount_total).toBe(25_000);
    expect((await agentAccount(who)).balance_usd).toBe('0.000000');
  });

  it('answers an unknown fund link with a 404 page, and sends every page with its CSP and no referrer', async () => {
    const who = await register();
    const page = await openFundPage(who);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`form-action 'self' ${stripe.url}`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.html).toContain(who.accountId.slice(0, 8));

    const token = new URL(who.fundUrl).pathname.split('/').at(-1)!;
    const other = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const url of [`${gateway.url}/fund/${other}`, `${gateway.url}/fund/not-a-token`]) {
      const res = await fetch(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(text(await res.text())).toContain('This fund link does not work');
    }
    const status = await fetch(`${gateway.url}/fund/${other}/status`);
    expect(status.status).toBe(404);
    expect(((await status.json()) as ErrorEnvelope).error.code).toBe('not_found');
  });
});
