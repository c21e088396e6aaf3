import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeUpstream, type StripeUpstream } from '../upstreams/stripe';

/**
 * The Stripe simulator's saved cards and off-session PaymentIntents, driven by the official
 * `stripe` package as the gateway drives them: a Checkout Session that saves the card, its
 * PaymentIntent read back with the card expanded, then charges of that card without its holder,
 * their idempotency, a declined card's 402 and the checks Stripe makes on the parameters.
 */

const KEY = 'sk_test_simulator_payments';
let simulator: StripeUpstream;
let stripe: Stripe;

beforeAll(async () => {
  simulator = await startStripeUpstream(KEY);
  const base = new URL(simulator.url);
  stripe = new Stripe(KEY, { httpClient: Stripe.createFetchHttpClient(), host: base.hostname, port: base.port, protocol: 'http', maxNetworkRetries: 0 });
});
afterAll(() => simulator?.stop());

const checkout = (extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) =>
  stripe.checkout.sessions.create({
    mode: 'payment',
    line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 2000, product_data: { name: 'Credit' } } }],
    success_url: 'http://127.0.0.1:9/done',
    customer_creation: 'always',
    payment_intent_data: { setup_future_usage: 'off_session', metadata: { purpose: 'save' } },
    ...extra,
  });

/** A paid session that saved a card: its Customer and PaymentMethod ids. */
async function savedCard(cardNumber = '4242 4242 4242 4242'): Promise<{ customer: string; paymentMethod: string }> {
  const session = await checkout();
  expect(session).toMatchObject({ customer: null, customer_creation: 'always', payment_intent: null });
  const paid = await simulator.complete(session.id, { deliver: false, card: cardNumber });
  const intent = await stripe.paymentIntents.retrieve(paid.payment_intent!, { expand: ['payment_method'] });
  const method = intent.payment_method as Stripe.PaymentMethod;
  expect(intent).toMatchObject({ status: 'succeeded', amount: 2000, customer: paid.customer, setup_future_usage: 'off_session', metadata: { purpose: 'save' } });
  expect(method).toMatchObject({ object: 'payment_method', customer: paid.customer, card: { last4: cardNumber.replace(/\D/g, '').slice(-4) } });
  return { customer: paid.customer as string, paymentMethod: method.id };
}

const offSession = (card: { customer: string; paymentMethod: string }, extra: Partial<Stripe.PaymentIntentCreateParams> = {}) => ({
  amount: 1000,
  currency: 'usd',
  customer: card.customer,
  payment_method: card.paymentMethod,
  off_session: true,
  confirm: true,
  metadata: { top_up: '1' },
  ...extra,
});

describe('the Stripe simulator: saved cards and off-session charges', () => {
  it('saves the card of a paid session to its new Customer, with brand and last 4 digits', async () => {
    const card = await savedCard('5555 5555 5555 4444');
    expect(simulator.paymentMethods.get(card.paymentMethod)?.card).toMatchObject({ brand: 'mastercard', last4: '4444' });
    // A later session for the same Customer.
    const again = await checkout({ customer: card.customer, customer_creation: undefined });
    expect(again.customer).toBe(card.customer);
  });

  it('charges a saved card off-session once per idempotency key', async () => {
    const card = await savedCard();
    const first = await stripe.paymentIntents.create(offSession(card), { idempotencyKey: 'topup:acct:1' });
    expect(first).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 1000, amount_received: 1000, customer: card.customer, payment_method: card.paymentMethod });
    const replay = await stripe.paymentIntents.create(offSession(card), { idempotencyKey: 'topup:acct:1' });
    expect(replay.id).toBe(first.id);
    const second = await stripe.paymentIntents.create(offSession(card), { idempotencyKey: 'topup:acct:2' });
    expect(second.id).not.toBe(first.id);
  });

  it('answers a declined card with a 402 card_error carrying the PaymentIntent, and the same answer for the same key', async () => {
    const card = await savedCard();
    simulator.setDeclining(card.paymentMethod);
    const attempt = () => stripe.paymentIntents.create(offSession(card), { idempotencyKey: `declined:${card.customer}` });
    const error = await attempt().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    const declined = error as Stripe.errors.StripeCardError;
    expect(declined).toMatchObject({ statusCode: 402, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' });
    expect(declined.payment_intent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined' } });
    const replayed = (await attempt().catch((err: unknown) => err)) as Stripe.errors.StripeCardError;
    expect(replayed.payment_intent?.id).toBe(declined.payment_intent?.id);
    expect([...simulator.paymentIntents.values()].filter((intent) => intent.customer === card.customer)).toHaveLength(2); // Checkout's and the declined one
  });

  it.each([
    ['off_session without confirm', { confirm: false }, 'off_session'],
    ['an amount under $0.50', { amount: 49 }, 'amount'],
    ['another customer', { customer: 'cus_nobody' }, 'customer'],
    ['an unknown card', { payment_method: 'pm_nothing' }, 'payment_method'],
  ])('refuses %s, naming the parameter', async (_, extra, param) => {
    const card = await savedCard();
    const error = (await stripe.paymentIntents.create(offSession(card, extra)).catch((err: unknown) => err)) as Stripe.errors.StripeError;
    expect(error.type).toBe('StripeInvalidRequestError');
    expect(error.param).toBe(param);
  });

  it('refuses a card attached to another Customer, and customer with customer_creation', async () => {
    const [mine, theirs] = await Promise.all([savedCard(), savedCard()]);
    const error = (await stripe.paymentIntents.create(offSession({ customer: mine.customer, paymentMethod: theirs.paymentMethod })).catch((err: unknown) => err)) as Stripe.errors.StripeError;
    expect(error.param).toBe('payment_method');
    const both = (await checkout({ customer: mine.customer }).catch((err: unknown) => err)) as Stripe.errors.StripeError;
    expect(both.param).toBe('customer_creation');
  });
});
