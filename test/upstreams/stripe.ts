/**
 * A local stand-in for the parts of Stripe's API that card funding through Stripe Checkout uses
 * (https://docs.stripe.com/api/checkout/sessions), spoken the way the official `stripe` package
 * talks: form-encoded bodies with bracket nesting (`line_items[0][price_data][unit_amount]=2500`),
 * `Authorization: Bearer sk_...` (Basic with the key as user works too, as for curl -u),
 * `Stripe-Version` and `Idempotency-Key` headers, and JSON answers carrying `Request-Id`.
 *
 * - `POST /v1/checkout/sessions` (payment mode, `line_items[i][price_data]` with `product_data`;
 *   the simulator has no Price or Product objects, so `price`/`product` ids get Stripe's
 *   `resource_missing`) answers a Checkout Session: `status: 'open'`, `payment_status: 'unpaid'`,
 *   `url` a page on this server. Stripe's checks are played: missing params (`parameter_missing`
 *   with `param`), unknown params, integers, the 30 minute to 24 hour window of `expires_at`,
 *   the $0.50 USD minimum, metadata limits, URLs and emails. A wrong or missing key gets 401.
 *   Idempotency as https://docs.stripe.com/api/idempotent_requests says: a key reused with the
 *   same parameters replays the first answer (`Idempotent-Replayed: true`), with other
 *   parameters or on another endpoint it gets 400 `idempotency_error`; a request that failed
 *   validation saves no result, a declined card's 402 is saved like a success.
 * - Saving the card for later (https://docs.stripe.com/payments/save-during-payment): `customer`
 *   (an existing Customer) or `customer_creation` (`always` makes one when the session is paid;
 *   not both), and `payment_intent_data[setup_future_usage]` (`on_session`/`off_session`, with
 *   `[metadata]` and `[description]`): the paid session's PaymentIntent carries them, and its card
 *   is attached to the Customer. PaymentIntents themselves are in `stripe-payments.ts`.
 * - `GET /v1/checkout/sessions/{id}`, `POST /v1/checkout/sessions/{id}/expire`, and
 *   `GET /v1/checkout/sessions?payment_intent=` (the session that made a PaymentIntent).
 * - Refunds and disputes of a paid PaymentIntent (`refund`, `dispute`, `closeDispute`; the events
 *   `charge.refunded`, `refund.created`, `charge.dispute.created` and `charge.dispute.closed`,
 *   signed like every event) and `GET /v1/refunds?charge=`: see `stripe-reversals.ts`.
 *   `redeliver` sends any event again; `completeDelayed` plays a session paid with a delayed
 *   method (completed `unpaid`, then `async_payment_succeeded` or `async_payment_failed`), refused
 *   for a session limited to cards (`allowed_payment_method_types`).
 * - `GET /c/pay/{id}`: a minimal hosted Checkout page: the amount, an Email and a Card number
 *   field and a "Pay" button posting to `POST /c/pay/{id}/complete`, which completes the
 *   session (`complete`/`paid`, a `payment_intent` that succeeded with that card, the `customer`,
 *   `customer_details`, `url: null`), delivers `checkout.session.completed` to the webhook, then
 *   redirects (303) to `success_url` with `{CHECKOUT_SESSION_ID}` filled in. Paying twice
 *   redirects without a second event.
 *
 * Webhooks are delivered as Stripe does (https://docs.stripe.com/webhooks): a POST of the Event
 * as pretty-printed JSON with a `Stripe-Signature: t=...,v1=...` header made with the `stripe`
 * package's `generateTestHeaderString`. Redelivery (`deliver`) sends the same event, re-signed.
 * Errors are Stripe's `{error: {type, message, param, code, doc_url}}`. Form-encoded request
 * bodies are recorded parsed (nested objects, list indices as keys: `body.line_items['0']`).
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import Stripe from 'stripe';
import { isJson, sendJson, startUpstream, type Json, type RecordedRequest, type Upstream } from './server';
import { fail, integer, metadataOf, missing, now, onlyKnown, optionalEnum, optionalString, randomId, StripeApiFailure } from './stripe-api';
import { startPayments, type Customer, type PaymentIntent, type PaymentMethod } from './stripe-payments';
import { startReversals, type Dispute, type Emission, type Refund } from './stripe-reversals';

export interface CheckoutSession {
  id: string;
  object: 'checkout.session';
  amount_subtotal: number;
  amount_total: number;
  cancel_url: string | null;
  client_reference_id: string | null;
  created: number;
  currency: string;
  customer_details: { email: string | null; name: null; address: null; phone: null; tax_exempt: 'none'; tax_ids: [] } | null;
  customer_email: string | null;
  expires_at: number;
  livemode: false;
  metadata: Record<string, string>;
  mode: 'payment';
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete' | 'expired';
  success_url: string | null;
  url: string | null;
  [field: string]: unknown;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Json };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export interface SignedEvent {
  event: StripeEvent;
  /** The exact body to POST. */
  payload: string;
  /** The `Stripe-Signature` header for it. */
  header: string;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  sessionId: string;
  url: string;
  header: string;
  /** The webhook's HTTP status; 0 when it could not be reached. */
  status: number;
  responseBody: string;
}

export interface StripeUpstream extends Upstream {
  /** Every Checkout Session created, by id: the live objects the API answers. */
  sessions: Map<string, CheckoutSession>;
  /** Every webhook POST made, in order. */
  deliveries: WebhookDelivery[];
  /** Where events go and the `whsec_...` they are signed with; until set, none are sent. */
  setWebhook: (url: string, secret: string) => void;
  /** Pays an open session as the Pay button does; delivers `checkout.session.completed` unless `deliver: false`. */
  complete: (sessionId: string, opts?: { deliver?: boolean; email?: string; card?: string }) => Promise<CheckoutSession>;
  /** (Re)sends the session's event (the completed one, or the expired one; or `type`), signed at `timestamp` (seconds, default now). */
  deliver: (sessionId: string, opts?: { type?: string; timestamp?: number }) => Promise<WebhookDelivery>;
  /** A new event around `object`, signed with the webhook secret (or `secret`) at `timestamp`; not sent. */
  signedEvent: (type: string, object: object, opts?: { timestamp?: number; secret?: string }) => SignedEvent;
  /** Expires an open session as Stripe does at `expires_at`, delivering `checkout.session.expired`. */
  expire: (sessionId: string) => Promise<CheckoutSession>;
  /** Customers made by sessions with `customer_creation: always`, by id. */
  customers: Map<string, Customer>;
  /** Every card paid with, by id; `customer` is set on the ones saved for later. */
  paymentMethods: Map<string, PaymentMethod>;
  /** Every PaymentIntent: those of paid sessions and those created through the API. */
  paymentIntents: Map<string, PaymentIntent>;
  /** Makes the card's issuer decline every further charge of it (`on: false` accepts them again). */
  setDeclining: (paymentMethodId: string, on?: boolean) => void;
  /** Refunds a paid PaymentIntent (`amount` cents; the rest by default), sending `charge.refunded` and `refund.created`. */
  refund: (paymentIntentId: string, amount?: number) => Promise<{ refund: Refund; events: StripeEvent[] }>;
  /** The cardholder disputes a paid PaymentIntent, sending `charge.dispute.created`. */
  dispute: (paymentIntentId: string, amount?: number) => Promise<{ dispute: Dispute; events: StripeEvent[] }>;
  /** Closes a dispute `won` or `lost`, sending `charge.dispute.closed`. */
  closeDispute: (disputeId: string, status: 'won' | 'lost') => Promise<StripeEvent[]>;
  /** Sends an event sent before again, re-signed (Stripe's retries). */
  redeliver: (eventId: string) => Promise<WebhookDelivery>;
  /**
   * Completes an open session paid with a delayed method (a bank debit): `complete` but
   * `payment_status: unpaid`, then, when called again with `outcome`, `async_payment_succeeded`
   * (paid) or `async_payment_failed`. Refused for a session limited to cards (`allowed_payment_method_types` card only: cards are never delayed).
   */
  completeDelayed: (sessionId: string, outcome?: 'succeeded' | 'failed') => Promise<CheckoutSession>;
}

/** Top-level parameters of `POST /v1/checkout/sessions` in stripe 23.1.0's types; others get `parameter_unknown`. */
const CREATE_PARAMS = new Set(
  ('adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types automatic_tax billing_address_collection ' +
    'branding_settings cancel_url client_reference_id consent_collection currency custom_fields custom_text customer customer_account ' +
    'customer_creation customer_email customer_update discounts excluded_payment_method_types expand expires_at integration_identifier ' +
    'invoice_creation line_items locale managed_payments metadata mode name_collection optional_items origin_context payment_intent_data ' +
    'payment_method_collection payment_method_configuration payment_method_data payment_method_options payment_method_types permissions ' +
    'phone_number_collection redirect_on_completion return_url saved_payment_method_options setup_intent_data shipping_address_collection ' +
    'shipping_options submit_type subscription_data success_url tax_id_collection ui_mode wallet_options').split(' '),
);
const ZERO_DECIMAL = new Set(['bif', 'clp', 'djf', 'gnf', 'jpy', 'kmf', 'krw', 'mga', 'pyg', 'rwf', 'ugx', 'vnd', 'vuv', 'xaf', 'xof', 'xpf']);
const DAY = 86_400;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Stripe's form encoding to nested objects: `a[b][0]=v` → `{a: {b: {'0': 'v'}}}`; `a[]=v` appends. */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!match) fail(`Invalid parameter name: ${name}`, name);
    const keys = [match![1]!, ...Array.from(match![2]!.matchAll(/\[([^[\]]*)\]/g), (m) => m[1]!)];
    let node = root;
    keys.forEach((key, i) => {
      const name = key === '' ? String(Object.keys(node).length) : key;
      if (i === keys.length - 1) node[name] = value;
      else node = isJson(node[name]) ? (node[name] as Json) : (node[name] = {});
    });
  }
  return root;
}

/** A list sent with indices (`line_items[0]`, `line_items[1]`), in index order. */
const listOf = (value: unknown): unknown[] =>
  isJson(value) ? Object.keys(value).sort((a, b) => Number(a) - Number(b)).map((key) => value[key]) : Array.isArray(value) ? value : [];

function optionalUrl(params: Json, name: string): string | null {
  const value = optionalString(params, name, 5000);
  if (value !== null && !/^https?:\/\/[^\s/]+/.test(value)) fail('Not a valid URL', name, 'url_invalid');
  return value;
}

function formatAmount(amount: number, currency: string): string {
  const major = ZERO_DECIMAL.has(currency) ? amount : amount / 100;
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(major);
}

export async function startStripeUpstream(apiKey = 'sk_test_stripe_simulator'): Promise<StripeUpstream> {
  const sessions = new Map<string, CheckoutSession>();
  const productNames = new Map<string, string>();
  /** The last event of each type per session, redelivered as is. */
  const events = new Map<string, StripeEvent>();
  const idempotent = new Map<string, { path: string; params: string; status: number; body: unknown; requestId: string }>();
  const payments = startPayments();
  const reversals = startReversals(payments.paymentIntents);
  /** Every event made, by id, for `redeliver`. */
  const eventsById = new Map<string, StripeEvent>();
  /** Sessions created with `allowed_payment_method_types` = card only: no delayed method can pay them. */
  const cardOnly = new Set<string>();
  /** What each session's `payment_intent_data` asked of the PaymentIntent it makes when paid. */
  const intentDataOf = new Map<string, IntentData>();
  const deliveries: WebhookDelivery[] = [];
  let webhook: { url: string; secret: string } | undefined;
  let apiVersion: string = Stripe.API_VERSION;
  let url = '';

  function authenticate(headers: IncomingHttpHeaders): void {
    const auth = headers.authorization ?? '';
    const key = auth.startsWith('Bearer ') ? auth.slice(7) : auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':')[0]! : '';
    if (!key) {
      fail(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
        undefined,
        undefined,
        401,
      );
    }
    if (key !== apiKey) fail(`Invalid API Key provided: ${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`, undefined, undefined, 401);
  }

  function createSession(params: Json): CheckoutSession {
    for (const name of Object.keys(params)) if (!CREATE_PARAMS.has(name)) fail(`Received unknown parameter: ${name}`, name, 'parameter_unknown');
    if (params.mode === undefined || params.mode === '') missing('mode');
    if (!['payment', 'setup', 'subscription'].includes(String(params.mode))) fail('Invalid mode: must be one of payment, setup, or subscription', 'mode');
    if (params.mode !== 'payment') fail(`The simulator plays only \`mode=payment\`, not \`${String(params.mode)}\`.`, 'mode');
    const items = listOf(params.line_items);
    if (items.length === 0) missing('line_items');
    if (items.length > 100) fail('A Checkout Session can have at most 100 line items.', 'line_items');
    let currency = '';
    let total = 0;
    const names: string[] = [];
    items.forEach((item, i) => {
      const at = `line_items[${i}]`;
      if (!isJson(item)) return fail(`Invalid object`, at);
      if (typeof item.price === 'string' && item.price) return fail(`No such price: '${item.price}'`, `${at}[price]`, 'resource_missing');
      const data = item.price_data;
      if (!isJson(data)) return missing(`${at}[price_data]`);
      if (typeof data.currency !== 'string' || !data.currency) return missing(`${at}[price_data][currency]`);
      if (!/^[a-zA-Z]{3}$/.test(data.currency)) fail(`Invalid currency: ${data.currency}.`, `${at}[price_data][currency]`);
      const itemCurrency = data.currency.toLowerCase();
      if (currency && itemCurrency !== currency) fail('All line items must use the same currency.', `${at}[price_data][currency]`);
      currency = itemCurrency;
      if (typeof data.product === 'string' && data.product) return fail(`No such product: '${data.product}'`, `${at}[price_data][product]`, 'resource_missing');
      if (!isJson(data.product_data)) return missing(`${at}[price_data][product_data]`);
      if (typeof data.product_data.name !== 'string' || !data.product_data.name) return missing(`${at}[price_data][product_data][name]`);
      names.push(data.product_data.name);
      const quantity = item.quantity === undefined ? missing(`${at}[quantity]`) : integer(item.quantity, `${at}[quantity]`, 1);
      if (data.unit_amount !== undefined) total += integer(data.unit_amount, `${at}[price_data][unit_amount]`, 0) * quantity;
      else if (typeof data.unit_amount_decimal === 'string' && /^\d+(\.\d+)?$/.test(data.unit_amount_decimal)) total += Math.round(Number(data.unit_amount_decimal) * quantity);
      else if (data.unit_amount_decimal !== undefined) fail(`Invalid decimal: ${String(data.unit_amount_decimal)}`, `${at}[price_data][unit_amount_decimal]`);
      else missing(`${at}[price_data][unit_amount]`);
    });
    if (currency === 'usd' && total < 50) fail("The Checkout Session's total amount due must add up to at least $0.50 usd", 'line_items');
    const created = now();
    let expiresAt = created + DAY;
    if (params.expires_at !== undefined) {
      expiresAt = integer(params.expires_at, 'expires_at', 0);
      if (expiresAt < created + 1800) fail('The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'expires_at');
      if (expiresAt > created + DAY) fail('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'expires_at');
    }
    const email = optionalString(params, 'customer_email', 800);
    if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail(`Invalid email address: ${email}`, 'customer_email', 'email_invalid');
    const metadata = metadataOf(params.metadata);
    const customer = optionalString(params, 'customer');
    if (customer !== null) payments.customerOf(customer);
    const customerCreation = optionalEnum(params, 'customer_creation', ['always', 'if_required'] as const);
    if (customer !== null && customerCreation !== null) fail('You may only specify one of these parameters: customer, customer_creation.', 'customer_creation');
    const intentData = paymentIntentData(params.payment_intent_data);
    const id = randomId('cs_test_a1', 56);
    const session: CheckoutSession = {
      id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, liability: null, status: null },
      billing_address_collection: null,
      cancel_url: optionalUrl(params, 'cancel_url'),
      client_reference_id: optionalString(params, 'client_reference_id', 200),
      client_secret: null,
      created,
      currency,
      custom_fields: [],
      customer,
      customer_creation: customer === null ? (customerCreation ?? 'if_required') : null,
      customer_details: email === null ? null : { email, name: null, address: null, phone: null, tax_exempt: 'none', tax_ids: [] },
      customer_email: email,
      expires_at: expiresAt,
      invoice: null,
      livemode: false,
      locale: optionalString(params, 'locale'),
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'if_required',
      allowed_payment_method_types: listOf(params.allowed_payment_method_types).length > 0 ? listOf(params.allowed_payment_method_types) : null,
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      status: 'open',
      submit_type: optionalString(params, 'submit_type'),
      subscription: null,
      success_url: optionalUrl(params, 'success_url'),
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted_page',
      url: `${url}/c/pay/${id}`,
    };
    sessions.set(id, session);
    // The caller limited the session to cards (`allowed_payment_method_types[0]=card`), not only defaulted to them.
    const methods = listOf(params.allowed_payment_method_types);
    if (methods.length === 1 && methods[0] === 'card') cardOnly.add(id);
    productNames.set(id, names.join(', '));
    intentDataOf.set(id, intentData);
    return session;
  }

  function sign(payload: string, opts: { timestamp?: number; secret?: string } = {}): string {
    const secret = opts.secret ?? webhook?.secret;
    if (!secret) throw new Error('No webhook secret: call setWebhook(url, secret) first');
    return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(opts.timestamp === undefined ? {} : { timestamp: opts.timestamp }) });
  }

  function newEvent(type: string, object: object): StripeEvent {
    const event: StripeEvent = { id: randomId('evt_1', 23), object: 'event', api_version: apiVersion, created: now(), data: { object: structuredClone(object) as Json }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type };
    eventsById.set(event.id, event);
    return event;
  }

  /** Sends each emission as a new event (to the webhook, when one is set), in order. */
  async function emitAll(about: string, emissions: Emission[]): Promise<StripeEvent[]> {
    const made = emissions.map(({ type, object }) => newEvent(type, object));
    if (webhook) for (const event of made) await post(about, event);
    return made;
  }

  async function completeDelayed(sessionId: string, outcome?: 'succeeded' | 'failed'): Promise<CheckoutSession> {
    const session = sessionOf(sessionId);
    if (outcome === undefined) {
      if (cardOnly.has(sessionId)) {
        throw new Error(`Checkout Session ${sessionId} accepts cards only: no delayed method can pay it`);
      }
      await complete(sessionId, { deliver: false });
      Object.assign(session, { payment_status: 'unpaid' });
      await emit(session, 'checkout.session.completed');
      return session;
    }
    if (session.status !== 'complete' || session.payment_status !== 'unpaid') throw new Error(`Checkout Session ${sessionId} is not awaiting a delayed payment`);
    if (outcome === 'succeeded') Object.assign(session, { payment_status: 'paid' });
    await emit(session, outcome === 'succeeded' ? 'checkout.session.async_payment_succeeded' : 'checkout.session.async_payment_failed');
    return session;
  }

  async function post(sessionId: string, event: StripeEvent, timestamp?: number): Promise<WebhookDelivery> {
    if (!webhook) throw new Error('No webhook configured: call setWebhook(url, secret) first');
    const payload = JSON.stringify(event, null, 2);
    const header = sign(payload, timestamp === undefined ? {} : { timestamp });
    const delivery: WebhookDelivery = { eventId: event.id, type: event.type, sessionId, url: webhook.url, header, status: 0, responseBody: '' };
    try {
      const response = await fetch(webhook.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': header, 'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)', Accept: '*/*; q=0.5, application/xml', 'Cache-Control': 'no-cache' },
        body: payload,
        signal: AbortSignal.timeout(20_000),
      });
      delivery.status = response.status;
      delivery.responseBody = await response.text();
    } catch (err) {
      delivery.responseBody = String(err);
    }
    deliveries.push(delivery);
    return delivery;
  }

  /** Records the session's event of `type`; sends it if a webhook is configured. */
  async function emit(session: CheckoutSession, type: string): Promise<void> {
    const event = newEvent(type, session);
    events.set(`${session.id} ${type}`, event);
    if (webhook) await post(session.id, event);
  }

  function sessionOf(id: string): CheckoutSession {
    const session = sessions.get(id);
    if (!session) return fail(`No such checkout.session: '${id}'`, 'session', 'resource_missing', 404);
    return session;
  }

  async function complete(sessionId: string, opts: { deliver?: boolean; email?: string; card?: string } = {}): Promise<CheckoutSession> {
    const session = sessionOf(sessionId);
    if (session.status !== 'open') throw new Error(`Checkout Session ${sessionId} is ${session.status}, not open`);
    const email = opts.email || session.customer_email;
    // A Customer is made when asked for (`customer_creation: always`); the card is attached to it when it is to be saved.
    const customer = typeof session.customer === 'string' ? session.customer : session.customer_creation === 'always' ? payments.createCustomer(email).id : null;
    const intentData = intentDataOf.get(sessionId) ?? { setupFutureUsage: null, metadata: {}, description: null };
    const intent = payments.checkoutPayment({ amount: session.amount_total, currency: session.currency, customer, cardNumber: opts.card ?? '', email, ...intentData });
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      payment_intent: intent.id,
      customer,
      customer_details: { email, name: null, address: null, phone: null, tax_exempt: 'none', tax_ids: [] },
      url: null,
    });
    const event = newEvent('checkout.session.completed', session);
    events.set(`${sessionId} ${event.type}`, event);
    if (webhook && opts.deliver !== false) await post(sessionId, event);
    return session;
  }

  async function expire(sessionId: string): Promise<CheckoutSession> {
    const session = sessionOf(sessionId);
    if (session.status !== 'open') fail(`Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${session.status}".`, 'session');
    Object.assign(session, { status: 'expired', url: null });
    await emit(session, 'checkout.session.expired');
    return session;
  }

  const upstream = await startUpstream(async (request, res) => {
    const path = request.path.split('?')[0]!;
    if (path.startsWith('/c/pay/')) return checkoutPage(request, res, path);
    const requestId = randomId('req_', 14);
    const version = typeof request.headers['stripe-version'] === 'string' ? request.headers['stripe-version'] : apiVersion;
    const key = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : undefined;
    const headers: Record<string, string> = { 'Request-Id': requestId, 'Stripe-Version': version, ...(key && request.method === 'POST' ? { 'Idempotency-Key': key } : {}) };
    try {
      authenticate(request.headers);
      const params = typeof request.body === 'string' ? parseStripeForm(request.body) : {};
      // Recorded as Stripe reads it.
      if (typeof request.body === 'string' && request.body) request.body = params;
      if (request.method === 'POST' && key) {
        const saved = idempotent.get(key);
        const retry = `Try using a key other than '${key}' if you meant to execute a different request.`;
        if (saved && saved.path !== path) {
          throw new StripeApiFailure({ status: 400, type: 'idempotency_error', message: `Keys for idempotent requests can only be used for the same endpoint they were first used for ('${saved.path}' vs '${path}'). ${retry}` });
        }
        if (saved && saved.params !== JSON.stringify(params)) {
          throw new StripeApiFailure({ status: 400, type: 'idempotency_error', message: `Keys for idempotent requests can only be used with the same parameters they were first used with. ${retry}` });
        }
        if (saved) return sendJson(res, saved.status, saved.body, { ...headers, 'Idempotent-Replayed': 'true', 'Original-Request': saved.requestId });
      }
      let answer: unknown;
      const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
      const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
      const query = parseStripeForm(request.path.split('?')[1] ?? '');
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        apiVersion = version;
        answer = createSession(params);
      } else if (request.method === 'GET' && sessionPath && !sessionPath[2]) answer = sessionOf(decodeURIComponent(sessionPath[1]!));
      else if (request.method === 'POST' && sessionPath?.[2]) answer = await expire(decodeURIComponent(sessionPath[1]!));
      else if (request.method === 'POST' && path === '/v1/payment_intents') answer = payments.createIntent(params);
      else if (request.method === 'GET' && intentPath) answer = payments.retrieveIntent(decodeURIComponent(intentPath[1]!), query);
      else if (request.method === 'GET' && path === '/v1/refunds') answer = reversals.listRefunds(query);
      else if (request.method === 'GET' && path === '/v1/checkout/sessions') {
        const intent = typeof query.payment_intent === 'string' ? query.payment_intent : null;
        answer = { object: 'list', data: [...sessions.values()].filter((s) => intent === null || s.payment_intent === intent).reverse(), has_more: false, url: '/v1/checkout/sessions' };
      }
      else {
        fail(`Unrecognized request URL (${request.method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`, undefined, undefined, 404);
      }
      if (request.method === 'POST' && key) idempotent.set(key, { path, params: JSON.stringify(params), status: 200, body: structuredClone(answer), requestId });
      sendJson(res, 200, answer, headers);
    } catch (err) {
      if (!(err instanceof StripeApiFailure)) throw err;
      const { status, ...error } = err.error;
      const docs = error.code ? { doc_url: `https://stripe.com/docs/error-codes/${error.code.replace(/_/g, '-')}` } : {};
      const body = { error: { ...error, ...docs, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } };
      // A declined card is a request Stripe executed: its answer is saved under the key like a success.
      if (error.type === 'card_error' && key) idempotent.set(key, { path, params: JSON.stringify(typeof request.body === 'object' ? request.body : {}), status, body, requestId });
      sendJson(res, status, body, headers);
    }
  });
  url = upstream.url;

  /** The hosted page and its Pay button; no API key, as for a customer's browser. */
  async function checkoutPage(request: RecordedRequest, res: ServerResponse, path: string): Promise<void> {
    const match = /^\/c\/pay\/([^/]+)(\/complete)?$/.exec(path);
    const session = match ? sessions.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !session) return sendHtml(res, 404, 'Something went wrong', '<p>The page you were looking for could not be found.</p>');
    const amount = formatAmount(session.amount_total, session.currency);
    if (request.method === 'POST' && match[2]) {
      if (session.status === 'expired') return sendHtml(res, 409, 'Session expired', '<p>This Checkout Session is no longer active.</p>');
      if (session.status === 'open') {
        const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
        await complete(session.id, { email: form.get('email') ?? '', card: form.get('card') ?? '' });
      }
      if (!session.success_url) return sendHtml(res, 200, 'Payment complete', `<p>Thanks for your payment of ${escapeHtml(amount)}.</p>`);
      res.writeHead(303, { Location: session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id) });
      return void res.end();
    }
    if (request.method !== 'GET') return sendHtml(res, 405, 'Method not allowed', '');
    if (session.status !== 'open') {
      return sendHtml(res, 200, 'Checkout', `<p>${session.status === 'complete' ? 'This Checkout Session is already paid.' : 'This Checkout Session is no longer active.'}</p>`);
    }
    const back = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">Back</a></p>` : '';
    sendHtml(
      res,
      200,
      `Pay ${amount}`,
      `<h1>${escapeHtml(productNames.get(session.id) ?? '')}</h1>
<p>Total due: <strong data-testid="amount">${escapeHtml(amount)}</strong></p>
<form method="post" action="/c/pay/${encodeURIComponent(session.id)}/complete">
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="email" value="${escapeHtml(session.customer_email ?? 'buyer@example.com')}"></p>
<p><label for="card">Card number</label> <input id="card" name="card" inputmode="numeric" value="4242 4242 4242 4242"></p>
<p><button type="submit">Pay</button></p>
</form>${back}`,
    );
  }

  return {
    ...upstream,
    sessions,
    deliveries,
    setWebhook: (target, secret) => {
      webhook = { url: target, secret };
    },
    complete,
    deliver: async (sessionId, opts = {}) => {
      const session = sessionOf(sessionId);
      const type = opts.type ?? (session.status === 'expired' ? 'checkout.session.expired' : 'checkout.session.completed');
      const event = events.get(`${sessionId} ${type}`);
      if (!event) throw new Error(`No ${type} event for ${sessionId} (it is ${session.status})`);
      return post(sessionId, event, opts.timestamp);
    },
    signedEvent: (type, object, opts = {}) => {
      const event = newEvent(type, object);
      const payload = JSON.stringify(event, null, 2);
      return { event, payload, header: sign(payload, opts) };
    },
    expire,
    customers: payments.customers,
    paymentMethods: payments.paymentMethods,
    paymentIntents: payments.paymentIntents,
    setDeclining: payments.setDeclining,
    refund: async (paymentIntentId, amount) => {
      const made = reversals.refund(paymentIntentId, amount);
      return { refund: made.refund, events: await emitAll(paymentIntentId, made.events) };
    },
    dispute: async (paymentIntentId, amount) => {
      const made = reversals.dispute(paymentIntentId, amount);
      return { dispute: made.dispute, events: await emitAll(paymentIntentId, made.events) };
    },
    closeDispute: async (disputeId, status) => emitAll(disputeId, reversals.closeDispute(disputeId, status)),
    redeliver: async (eventId) => {
      const event = eventsById.get(eventId);
      if (!event) throw new Error(`No event ${eventId}`);
      return post(eventId, event);
    },
    completeDelayed,
  };
}

interface IntentData {
  setupFutureUsage: PaymentIntent['setup_future_usage'];
  metadata: Record<string, string>;
  description: string | null;
}

/** `payment_intent_data` of a payment-mode session, checked as Stripe does. */
const INTENT_DATA_PARAMS = new Set(
  'application_fee_amount capture_method description metadata on_behalf_of receipt_email setup_future_usage shipping statement_descriptor statement_descriptor_suffix transfer_data transfer_group'.split(' '),
);
function paymentIntentData(value: unknown): IntentData {
  if (value === undefined || value === '') return { setupFutureUsage: null, metadata: {}, description: null };
  if (!isJson(value)) return fail('Invalid object', 'payment_intent_data');
  onlyKnown(value, INTENT_DATA_PARAMS, 'payment_intent_data');
  return {
    setupFutureUsage: optionalEnum(value, 'setup_future_usage', ['on_session', 'off_session'] as const, 'payment_intent_data[setup_future_usage]'),
    metadata: metadataOf(value.metadata, 'payment_intent_data[metadata]'),
    description: optionalString(value, 'description', 1000, 'payment_intent_data[description]'),
  };
}

function sendHtml(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${escapeHtml(title)} · Stripe Checkout (simulator)</title></head>
<body><main>
${body}
</main></body></html>
`);
}
