import { request as httpRequest } from 'node:http';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeUpstream, type CheckoutSession, type StripeUpstream } from '../upstreams/stripe';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Card money that goes back to the payer, as Stripe's events bring it (the local simulator's
 * refunds and disputes, signed like every event): a refund debits once however often it is
 * delivered, a dispute the balance cannot cover suspends the account (D28: every key 403
 * `account_suspended`, funding still works), and a session completed with a delayed method keeps
 * counting under the unclaimed cap until its payment succeeds or fails.
 */

const ADMIN = 'card-reversals-admin-token-0123456789';
const STRIPE_KEY = 'sk_test_card_reversals_0123456789';
const WEBHOOK_SECRET = 'whsec_card_reversals_secret_0123456789';
let stripe: StripeUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  stripe = await startStripeUpstream(STRIPE_KEY);
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, STRIPE_SECRET_KEY: STRIPE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripe.url });
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
  ip: string;
}

let ipSequence = 0;

async function register(): Promise<Registered> {
  const ip = `198.51.100.${++ipSequence}`;
  const res = await fetch(`${gateway.url}/agent/register`, { method: 'POST', headers: { 'CF-Connecting-IP': ip }, body: JSON.stringify({ type: 'anonymous' }) });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { api_key: string; account_id: string; fund_url: string };
  return { apiKey: body.api_key, accountId: body.account_id, fundUrl: body.fund_url, ip };
}

const admin = async <T>(path: string, body?: unknown): Promise<T> => {
  const res = await fetch(`${gateway.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
};

interface LedgerRow {
  kind: string;
  amount_usd: string;
  source: string | null;
  note: string | null;
}

const ledger = async (who: Registered) => (await admin<{ data: LedgerRow[] }>(`/admin/accounts/${who.accountId}/ledger`)).data;
const balance = async (who: Registered) => (await admin<{ balance_usd: string }>(`/admin/accounts/${who.accountId}`)).balance_usd;
const webhook = (payload: string, signature: string) =>
  fetch(`${gateway.url}/webhooks/stripe`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });
const agentAccount = (who: Registered) => fetch(`${gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${who.apiKey}` } });

/** The fund page's card form, as a browser posts it; answers the Checkout Session it led to, or the refusal. */
async function postCard(who: Registered, amount: string): Promise<{ res: Response; session: CheckoutSession | undefined; html: string }> {
  const page = await fetch(who.fundUrl, { headers: { 'CF-Connecting-IP': who.ip } });
  const html = await page.text();
  const csrf = /name="csrf" value="([A-Za-z0-9]+)"/.exec(html)?.[1] ?? '';
  const cookie = page.headers.getSetCookie().map((line) => line.split(';')[0]!).find((pair) => pair.startsWith('csrf=')) ?? '';
  const res = await fetch(`${who.fundUrl}/card`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'CF-Connecting-IP': who.ip, Cookie: cookie, Origin: gateway.url },
    body: new URLSearchParams({ amount_usd: amount, csrf }).toString(),
    redirect: 'manual',
  });
  const location = res.headers.get('location');
  const session = location ? stripe.sessions.get(decodeURIComponent(new URL(location).pathname.split('/').at(-1)!)) : undefined;
  return { res, session, html: session ? '' : await res.text() };
}

/** A paid card payment of `amount` dollars through the fund page; its PaymentIntent id. */
async function payByCard(who: Registered, amount: string): Promise<string> {
  const { session } = await postCard(who, amount);
  expect(session).toBeDefined();
  const paid = await stripe.complete(session!.id);
  return paid.payment_intent!;
}

describe('refunds', () => {
  it('debits a partial refund once under refund:<id>, however often and by whichever event it arrives', async () => {
    const who = await register();
    const intent = await payByCard(who, '40');
    expect(await balance(who)).toBe('40.000000');

    const { refund, events } = await stripe.refund(intent, 1500);
    expect(events.map((event) => event.type)).toEqual(['charge.refunded', 'refund.created']);
    // Stripe retries: each event three more times, all at once.
    const again = await Promise.all(events.flatMap((event) => [1, 2, 3].map(() => stripe.redeliver(event.id))));
    expect(again.map((delivery) => delivery.status)).toEqual(Array.from({ length: 6 }, () => 200));

    expect(await balance(who)).toBe('25.000000');
    const debits = (await ledger(who)).filter((row) => row.kind === 'credit' && row.amount_usd.startsWith('-'));
    expect(debits).toEqual([expect.objectContaining({ amount_usd: '-15.000000', source: 'card' })]);
    expect(debits[0]!.note).toContain(refund.id);

    // The rest is refunded later: a second refund, its own debit.
    await stripe.refund(intent);
    expect(await balance(who)).toBe('0.000000');
    expect((await agentAccount(who)).status).toBe(200);
  });

  it('finds the account of a Checkout Session made before PaymentIntents carried it (a session opened by an older release)', async () => {
    const who = await register();
    const client = new Stripe(STRIPE_KEY, { host: '127.0.0.1', port: Number(new URL(stripe.url).port), protocol: 'http' });
    // As the fund page made sessions before: the account in the session's metadata only.
    const old = await client.checkout.sessions.create({
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2000, product_data: { name: 'Gateway credit' } } }],
      client_reference_id: who.accountId,
      metadata: { account_id: who.accountId },
      success_url: `${who.fundUrl}?paid=1`,
    });
    const paid = await stripe.complete(old.id);
    expect(stripe.paymentIntents.get(paid.payment_intent!)?.metadata).toEqual({});
    expect(await balance(who)).toBe('20.000000');
    await stripe.refund(paid.payment_intent!, 500);
    expect(await balance(who)).toBe('15.000000');
  });
});

describe('disputes', () => {
  it('suspend an account whose balance cannot cover them: every key 403 account_suspended, funding still works, the operator lifts it', async () => {
    const who = await register();
    const intent = await payByCard(who, '30');
    // The agent spends $20 of it (an operator correction stands in for usage).
    await admin(`/admin/accounts/${who.accountId}/credits`, { amount_usd: '-20', reason: 'spent' });

    const { dispute, events } = await stripe.dispute(intent);
    await Promise.all(events.map((event) => stripe.redeliver(event.id)));
    expect(await balance(who)).toBe('-20.000000');
    const view = await admin<{ suspended: { reason: string } | null }>(`/admin/accounts/${who.accountId}`);
    expect(view.suspended?.reason).toContain(dispute.id);

    const refused = await agentAccount(who);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('account_suspended');

    // The fund page says so and still takes a card.
    const { session } = await postCard(who, '25');
    const page = await (await fetch(who.fundUrl, { headers: { 'CF-Connecting-IP': who.ip } })).text();
    expect(page).toContain('suspended');
    await stripe.complete(session!.id);
    expect(await balance(who)).toBe('5.000000');
    expect((await agentAccount(who)).status).toBe(403);

    await admin(`/admin/accounts/${who.accountId}/unsuspend`, { reason: 'repaid' });
    expect((await agentAccount(who)).status).toBe(200);

    // Won: the $30 comes back once.
    const closed = await stripe.closeDispute(dispute.id, 'won');
    await stripe.redeliver(closed[0]!.id);
    expect(await balance(who)).toBe('35.000000');
  });

  it('debits a dispute the balance covers without suspending', async () => {
    const who = await register();
    const intent = await payByCard(who, '50');
    await payByCard(who, '50');
    await stripe.dispute(intent, 2000);
    expect(await balance(who)).toBe('80.000000');
    expect((await agentAccount(who)).status).toBe(200);
  });
});

describe('Checkout for an unclaimed account', () => {
  it('accepts cards only', async () => {
    const who = await register();
    const { session } = await postCard(who, '10');
    const created = stripe.requests.filter((request) => request.path === '/v1/checkout/sessions' && request.method === 'POST').at(-1);
    expect((created?.body as { allowed_payment_method_types?: Record<string, string> }).allowed_payment_method_types).toEqual({ '0': 'card' });
    await expect(stripe.completeDelayed(session!.id)).rejects.toThrow(/cards only/);
  });

  it('counts a session completed but unpaid (a delayed method) as processing until its payment fails', async () => {
    const who = await register();
    const first = (await postCard(who, '250')).session!;
    const second = (await postCard(who, '250')).session!;
    // Stripe reports the first completed with its payment still on its way.
    const unpaid = { ...(await stripe.complete(first.id, { deliver: false })), payment_status: 'unpaid' };
    const completed = stripe.signedEvent('checkout.session.completed', unpaid);
    expect((await webhook(completed.payload, completed.header)).status).toBe(200);
    await stripe.expire(second.id);
    const payments = (await admin<{ funding: { card_payments: { checkout_session: string; status: string }[] } }>(`/admin/accounts/${who.accountId}`)).funding.card_payments;
    expect(payments.map((p) => [p.checkout_session, p.status])).toEqual([
      [second.id, 'expired'],
      [first.id, 'processing'],
    ]);
    expect((await postCard(who, '250')).res.status).toBe(303);
    const refused = await postCard(who, '5');
    expect(refused.res.status).toBe(400);
    expect(refused.html).toContain('processing count too');

    const failed = stripe.signedEvent('checkout.session.async_payment_failed', unpaid);
    expect((await webhook(failed.payload, failed.header)).status).toBe(200);
    expect((await postCard(who, '5')).res.status).toBe(303);
    expect(await balance(who)).toBe('0.000000');
  });
});

describe('POST /webhooks/stripe', () => {
  it('answers 413 for a body over 1 MiB, on its Content-Length alone', async () => {
    // The answer comes before the body is read, and the connection then closes: a client still
    // sending may see the close before the answer (a flake under load), so only the headers go.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${gateway.url}/webhooks/stripe`, { method: 'POST', headers: { 'Stripe-Signature': 't=1,v1=x', 'Content-Length': String(1024 * 1024 + 1) } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer.status).toBe(413);
    expect((JSON.parse(answer.body) as { error: { code: string } }).error.code).toBe('request_too_large');
  });
});
