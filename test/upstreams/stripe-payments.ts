/**
 * The Stripe simulator's Customers, card PaymentMethods and PaymentIntents: what a Checkout
 * Session that saves the card leaves behind (https://docs.stripe.com/payments/save-during-payment)
 * and what charging that card later without its holder takes
 * (https://docs.stripe.com/api/payment_intents/create with `off_session` and `confirm`).
 *
 * - `POST /v1/payment_intents`: `amount` (at least $0.50 in USD), `currency`, `customer`,
 *   `payment_method` (which must be attached to that customer), `confirm`, `off_session` (only with
 *   `confirm=true`), `description`, `metadata`. Confirmed, it answers the PaymentIntent
 *   `succeeded`; for a card marked declining it answers Stripe's 402 `card_error` (`code:
 *   card_declined`, `decline_code: generic_decline`) carrying the PaymentIntent, now
 *   `requires_payment_method` with its `last_payment_error`.
 * - `GET /v1/payment_intents/{id}`, with `expand[]=payment_method` and `expand[]=customer`.
 */
import { fail, integer, metadataOf, missing, noSuch, now, onlyKnown, optionalBoolean, optionalString, randomId, StripeApiFailure } from './stripe-api';
import { isJson, type Json } from './server';

export interface Customer {
  id: string;
  object: 'customer';
  created: number;
  email: string | null;
  livemode: false;
  metadata: Record<string, string>;
  [field: string]: unknown;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: 'US' };
  billing_details: { email: string | null; name: null; phone: null; address: null };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Record<string, string>;
  [field: string]: unknown;
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: Json | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  payment_method: string | null;
  setup_future_usage: 'on_session' | 'off_session' | null;
  status: 'requires_payment_method' | 'requires_confirmation' | 'succeeded';
  [field: string]: unknown;
}

/** Top-level parameters of `POST /v1/payment_intents` in stripe 23.1.0's types. */
const CREATE_PARAMS = new Set(
  ('amount currency allowed_payment_method_types amount_details application_fee_amount automatic_payment_methods capture_method confirm ' +
    'confirmation_method confirmation_token customer customer_account description error_on_requires_action excluded_payment_method_types ' +
    'expand hooks mandate mandate_data metadata off_session on_behalf_of payment_details payment_method payment_method_configuration ' +
    'payment_method_data payment_method_options radar_options receipt_email return_url setup_future_usage shipping statement_descriptor ' +
    'statement_descriptor_suffix transfer_data transfer_group use_stripe_sdk').split(' '),
);
const EXPANDABLE = new Set(['payment_method', 'customer']);

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

export function startPayments() {
  const customers = new Map<string, Customer>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const paymentIntents = new Map<string, PaymentIntent>();
  /** Cards whose issuer declines every further charge (as Stripe's test card 4000 0000 0000 0341 does once saved). */
  const declining = new Set<string>();

  function createCustomer(email: string | null): Customer {
    const customer: Customer = { id: randomId('cus_', 14), object: 'customer', created: now(), email, livemode: false, metadata: {}, description: null, name: null, phone: null };
    customers.set(customer.id, customer);
    return customer;
  }

  function customerOf(id: string, param = 'customer'): Customer {
    return customers.get(id) ?? noSuch('customer', id, param);
  }

  /** The card typed on the Checkout page, as a PaymentMethod. */
  function cardPaymentMethod(cardNumber: string, email: string | null): PaymentMethod {
    const digits = cardNumber.replace(/\D/g, '') || '4242424242424242';
    const card = { brand: brandOf(digits), last4: digits.slice(-4), exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: 'credit' as const, country: 'US' as const };
    const method: PaymentMethod = { id: randomId('pm_1', 23), object: 'payment_method', type: 'card', card, billing_details: { email, name: null, phone: null, address: null }, created: now(), customer: null, livemode: false, metadata: {} };
    paymentMethods.set(method.id, method);
    return method;
  }

  function newIntent(fields: Pick<PaymentIntent, 'amount' | 'currency' | 'customer' | 'description' | 'metadata' | 'payment_method' | 'setup_future_usage'>): PaymentIntent {
    const id = randomId('pi_3', 22);
    const intent: PaymentIntent = {
      id,
      object: 'payment_intent',
      amount_capturable: 0,
      amount_received: 0,
      capture_method: 'automatic_async',
      client_secret: `${id}_secret_${randomId('', 25)}`,
      confirmation_method: 'automatic',
      created: now(),
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      payment_method_types: ['card'],
      status: fields.payment_method ? 'requires_confirmation' : 'requires_payment_method',
      ...fields,
    };
    paymentIntents.set(id, intent);
    return intent;
  }

  function succeed(intent: PaymentIntent): PaymentIntent {
    return Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, latest_charge: randomId('ch_3', 22) });
  }

  /** A Checkout Session paid with `cardNumber`: its PaymentIntent, succeeded, and the card attached to `customer` when it is to be saved. */
  function checkoutPayment(opts: { amount: number; currency: string; customer: string | null; cardNumber: string; email: string | null; setupFutureUsage: PaymentIntent['setup_future_usage']; metadata: Record<string, string>; description: string | null }): PaymentIntent {
    const method = cardPaymentMethod(opts.cardNumber, opts.email);
    if (opts.customer && opts.setupFutureUsage) method.customer = opts.customer;
    const { amount, currency, customer, metadata, description } = opts;
    return succeed(newIntent({ amount, currency, customer, metadata, description, payment_method: method.id, setup_future_usage: opts.setupFutureUsage }));
  }

  /** `POST /v1/payment_intents`. */
  function createIntent(params: Json): PaymentIntent {
    onlyKnown(params, CREATE_PARAMS);
    if (params.amount === undefined) missing('amount');
    const amount = integer(params.amount, 'amount', 1);
    const currency = optionalString(params, 'currency', 3)?.toLowerCase() ?? missing('currency');
    if (!/^[a-z]{3}$/.test(currency)) fail(`Invalid currency: ${currency}.`, 'currency');
    if (currency === 'usd' && amount < 50) fail('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    const customerId = optionalString(params, 'customer');
    const customer = customerId === null ? null : customerOf(customerId);
    const methodId = optionalString(params, 'payment_method');
    const method = methodId === null ? null : (paymentMethods.get(methodId) ?? noSuch('PaymentMethod', methodId, 'payment_method'));
    const confirm = optionalBoolean(params, 'confirm') ?? false;
    const offSession = params.off_session === undefined ? null : optionalBoolean(params, 'off_session');
    if (offSession !== null && !confirm) fail('You may only specify `off_session` when `confirm` is true.', 'off_session');
    if (method && method.customer !== (customer?.id ?? null)) {
      fail(
        method.customer === null
          ? 'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.'
          : `The provided PaymentMethod belongs to Customer ${method.customer}, not to the Customer of this PaymentIntent.`,
        'payment_method',
      );
    }
    const intent = newIntent({
      amount,
      currency,
      customer: customer?.id ?? null,
      description: optionalString(params, 'description', 1000),
      metadata: metadataOf(params.metadata),
      payment_method: method?.id ?? null,
      setup_future_usage: null,
    });
    if (!confirm || !method) return intent;
    if (declining.has(method.id)) decline(intent, method);
    return succeed(intent);
  }

  /** The issuer declines: the PaymentIntent goes back to `requires_payment_method` and the call fails with 402. */
  function decline(intent: PaymentIntent, method: PaymentMethod): never {
    const charge = randomId('ch_3', 22);
    const error = { type: 'card_error' as const, code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' };
    Object.assign(intent, { status: 'requires_payment_method', payment_method: null, latest_charge: charge, last_payment_error: { ...error, charge, payment_method: structuredClone(method) } });
    throw new StripeApiFailure({ status: 402, ...error, charge, payment_intent: structuredClone(intent), payment_method: structuredClone(method) });
  }

  /** `GET /v1/payment_intents/{id}`, expanding what `expand[]` names. */
  function retrieveIntent(id: string, query: Json): Json {
    const intent = paymentIntents.get(id) ?? noSuch('payment_intent', id, 'intent');
    const answer: Json = structuredClone(intent);
    const expand = typeof query.expand === 'string' ? [query.expand] : isJson(query.expand) ? Object.values(query.expand) : [];
    for (const field of expand) {
      if (typeof field !== 'string' || !EXPANDABLE.has(field)) return fail(`This property cannot be expanded (${String(field)}).`, 'expand');
      const ref = intent[field];
      if (typeof ref === 'string') answer[field] = structuredClone(field === 'customer' ? customers.get(ref) : paymentMethods.get(ref)) ?? null;
    }
    return answer;
  }

  return {
    customers,
    paymentMethods,
    paymentIntents,
    createCustomer,
    customerOf,
    checkoutPayment,
    createIntent,
    retrieveIntent,
    /** Makes the card's issuer decline every further charge of it (or accept them again). */
    setDeclining: (paymentMethodId: string, on = true) => void (on ? declining.add(paymentMethodId) : declining.delete(paymentMethodId)),
  };
}

export type Payments = ReturnType<typeof startPayments>;
