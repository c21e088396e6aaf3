import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isJson } from '../upstreams/server';
import { startStripeUpstream, type StripeUpstream } from '../upstreams/stripe';

/**
 * The Stripe simulator as the gateway will meet it: the official `stripe` package (fetch HTTP
 * client, host/port/protocol from the simulator's base URL) creates and reads Checkout Sessions,
 * the hosted page's Pay button completes one, and the signed `checkout.session.completed` event
 * reaches a local webhook where `stripe.webhooks.constructEventAsync` verifies it.
 */

const KEY = 'sk_test_simulator_self_test';
const SECRET = 'whsec_simulator_self_test';

interface Received {
  payload: string;
  header: string;
}

let simulator: StripeUpstream;
let stripe: Stripe;
let hook: { url: string; received: Received[]; stop: () => Promise<void> };

/** A webhook endpoint that keeps each raw body and its `Stripe-Signature`. */
async function startWebhook(): Promise<typeof hook> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push({ payload: Buffer.concat(chunks).toString('utf8'), header: String(req.headers['stripe-signature'] ?? '') });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end('{"received":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/webhooks/stripe`, received, stop: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** How the gateway builds its client from a base URL. */
function client(baseUrl: string, key: string): Stripe {
  const base = new URL(baseUrl);
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    host: base.hostname,
    port: base.port,
    protocol: base.protocol === 'http:' ? 'http' : 'https',
    maxNetworkRetries: 0,
  });
}

const params = (overrides: Partial<Stripe.Checkout.SessionCreateParams> = {}): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [{ price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Gateway credit ($25.00)' } }, quantity: 1 }],
  success_url: 'http://127.0.0.1:9/funded?session={CHECKOUT_SESSION_ID}',
  cancel_url: 'http://127.0.0.1:9/cancelled',
  client_reference_id: 'acct_123',
  metadata: { account_id: 'acct_123', credit_cents: '2500' },
  expires_at: Math.floor(Date.now() / 1000) + 3600,
  ...overrides,
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a rejection'),
    (err: unknown) => err,
  );
}

beforeAll(async () => {
  [simulator, hook] = await Promise.all([startStripeUpstream(KEY), startWebhook()]);
  simulator.setWebhook(hook.url, SECRET);
  stripe = client(simulator.url, KEY);
});
afterAll(async () => {
  await simulator?.stop();
  await hook?.stop();
});

describe('Stripe simulator', () => {
  it('creates a Checkout Session from price_data as the SDK encodes it, retrieves it, and replays an idempotency key', async () => {
    const body = params();
    const session = await stripe.checkout.sessions.create(body, { idempotencyKey: 'fund-acct_123-1' });
    expect(session).toMatchObject({
      object: 'checkout.session',
      amount_total: 2500,
      currency: 'usd',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: 'acct_123',
      metadata: { account_id: 'acct_123', credit_cents: '2500' },
      expires_at: body.expires_at,
      success_url: body.success_url,
      cancel_url: body.cancel_url,
      livemode: false,
    });
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${simulator.url}/c/pay/${session.id}`);

    const sent = simulator.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(sent.headers['idempotency-key']).toBe('fund-acct_123-1');
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.body).toMatchObject({ mode: 'payment', line_items: { '0': { price_data: { currency: 'usd', unit_amount: '2500', product_data: { name: 'Gateway credit ($25.00)' } }, quantity: '1' } } });

    expect(await stripe.checkout.sessions.retrieve(session.id)).toEqual({ ...session });
    const replay = await stripe.checkout.sessions.create(body, { idempotencyKey: 'fund-acct_123-1' });
    expect(replay.id).toBe(session.id);
    expect(simulator.sessions.size).toBe(1);
    const reused = await rejection(stripe.checkout.sessions.create(params({ client_reference_id: 'acct_456' }), { idempotencyKey: 'fund-acct_123-1' }));
    expect(reused).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("answers Stripe's errors, which the SDK raises as its typed errors", async () => {
    const noQuantity = await rejection(
      stripe.checkout.sessions.create(params({ line_items: [{ price_data: { currency: 'usd', unit_amount: 2500, product_data: { name: 'Credit' } } }] })),
    );
    expect(noQuantity).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(noQuantity).toMatchObject({ statusCode: 400, rawType: 'invalid_request_error', code: 'parameter_missing', param: 'line_items[0][quantity]' });

    const soon = await rejection(stripe.checkout.sessions.create(params({ expires_at: Math.floor(Date.now() / 1000) + 60 })));
    expect(soon).toMatchObject({ statusCode: 400, param: 'expires_at' });

    const wrongKey = await rejection(client(simulator.url, 'sk_test_wrong_key_0000').checkout.sessions.create(params()));
    expect(wrongKey).toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    expect(wrongKey).toMatchObject({ statusCode: 401 });

    const unknown = await rejection(stripe.checkout.sessions.retrieve('cs_test_missing'));
    expect(unknown).toMatchObject({ statusCode: 404, code: 'resource_missing', type: 'StripeInvalidRequestError' });
  });

  it('pays through the hosted page, then delivers checkout.session.completed signed for constructEventAsync, again on demand', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const page = await fetch(session.url!);
    const html = await page.text();
    expect(html).toContain('$25.00');
    expect(html).toMatch(/<button type="submit">Pay<\/button>/);

    const before = hook.received.length;
    const paid = await fetch(`${simulator.url}/c/pay/${session.id}/complete`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=payer%40example.com',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`http://127.0.0.1:9/funded?session=${session.id}`);
    expect(hook.received).toHaveLength(before + 1);

    const { payload, header } = hook.received.at(-1)!;
    const event = await stripe.webhooks.constructEventAsync(payload, header, SECRET);
    expect(event.type).toBe('checkout.session.completed');
    expect(event).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION });
    expect(event.id).toMatch(/^evt_/);
    const object = event.data.object;
    expect(isJson(object) && object).toMatchObject({ id: session.id, status: 'complete', payment_status: 'paid', amount_total: 2500, client_reference_id: 'acct_123', metadata: { account_id: 'acct_123', credit_cents: '2500' } });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: 'complete', payment_status: 'paid', url: null, customer_details: { email: 'payer@example.com' } });

    // Stripe redelivers the same event; three at once.
    const again = await Promise.all([1, 2, 3].map(() => simulator.deliver(session.id)));
    expect(again.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    const redelivered = await Promise.all(hook.received.slice(-3).map((received) => stripe.webhooks.constructEventAsync(received.payload, received.header, SECRET)));
    expect(redelivered.map((e) => e.id)).toEqual([event.id, event.id, event.id]);

    // Paying twice does not send another event.
    const twice = await fetch(`${simulator.url}/c/pay/${session.id}/complete`, { method: 'POST', redirect: 'manual' });
    expect(twice.status).toBe(303);
    expect(hook.received).toHaveLength(before + 4);
  });

  it('signs events a test sends itself: stale and wrongly signed ones fail verification', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const fresh = simulator.signedEvent('checkout.session.completed', session);
    await expect(stripe.webhooks.constructEventAsync(fresh.payload, fresh.header, SECRET)).resolves.toMatchObject({ id: fresh.event.id });
    const stale = simulator.signedEvent('checkout.session.completed', session, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    await expect(stripe.webhooks.constructEventAsync(stale.payload, stale.header, SECRET)).rejects.toThrow(/tolerance/);
    const forged = simulator.signedEvent('checkout.session.completed', session, { secret: 'whsec_someone_else' });
    await expect(stripe.webhooks.constructEventAsync(forged.payload, forged.header, SECRET)).rejects.toBeInstanceOf(Stripe.errors.StripeSignatureVerificationError);
  });

  it('expires a session: checkout.session.expired is delivered and the page has no Pay button', async () => {
    const session = await stripe.checkout.sessions.create(params());
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    const { payload, header } = hook.received.at(-1)!;
    expect(await stripe.webhooks.constructEventAsync(payload, header, SECRET)).toMatchObject({ type: 'checkout.session.expired', data: { object: { id: session.id } } });
    expect(await (await fetch(`${simulator.url}/c/pay/${session.id}`)).text()).not.toContain('>Pay<');
    const other = await stripe.checkout.sessions.create(params());
    expect((await simulator.expire(other.id)).status).toBe('expired');
    expect(await rejection(stripe.checkout.sessions.expire(other.id))).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
  });
});
