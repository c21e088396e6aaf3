import { AccountClient } from '../accounts/account-client';
import { MICROS_PER_CENT } from './off-session';
import type { StripeRail, Stripe } from './stripe';

/** The Checkout metadata that marks a payment made to save its card for auto top-up. */
const SAVE_CARD_METADATA = { save_card: 'auto_top_up' } as const;

export interface CardSavingCheckout {
  accountId: string;
  /** The `card_payments` row of this payment (its id is also the Stripe idempotency key). */
  paymentId: string;
  amountMicros: number;
  /** The account's Stripe Customer when a card was saved before: the new card joins it. */
  customerId: string | null;
  successUrl: string;
  cancelUrl: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * A Checkout Session that pays `amountMicros` now and keeps the card for charges made without its
 * holder (`payment_intent_data.setup_future_usage: off_session`), attached to the account's
 * Customer, or to one Checkout makes (`customer_creation: always`). Its URL is where the payer goes.
 */
export async function saveCardCheckout(rail: StripeRail, input: CardSavingCheckout): Promise<Stripe.Checkout.Session> {
  const shortId = input.accountId.slice(0, 8);
  return rail.client.createCheckoutSession(
    {
      mode: 'payment',
      line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: Math.round(input.amountMicros / MICROS_PER_CENT), product_data: { name: `Gateway credit for account ${shortId}` } } }],
      ...(input.customerId ? { customer: input.customerId } : { customer_creation: 'always' as const }),
      allowed_payment_method_types: ['card'],
      payment_intent_data: {
        setup_future_usage: 'off_session',
        description: `Gateway credit for account ${shortId}; card saved for auto top-up`,
        metadata: { account_id: input.accountId, card_payment_id: input.paymentId },
      },
      client_reference_id: input.accountId,
      metadata: { account_id: input.accountId, card_payment_id: input.paymentId, ...SAVE_CARD_METADATA },
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
      expires_at: input.expiresAt,
    },
    input.paymentId,
  );
}

/**
 * Stores the card of a paid Checkout Session that was made to save it (`setup_future_usage:
 * off_session` with a Customer) as the account's card for auto top-up: the session's
 * PaymentIntent, read with its PaymentMethod expanded, names the card, its Customer, brand and
 * last 4 digits. False when the session was not one of those or the account is gone. Throws when
 * Stripe cannot be read, so the webhook answers 5xx and Stripe delivers it again.
 */
export async function saveCheckoutCard(env: Env, rail: StripeRail, accountId: string, session: Stripe.Checkout.Session): Promise<boolean> {
  if (session.metadata?.save_card !== SAVE_CARD_METADATA.save_card || !session.payment_intent) return false;
  const intentId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent.id;
  const intent = await rail.client.retrievePaymentIntent(intentId, ['payment_method']);
  const method = intent.payment_method;
  const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (!method || !customer || intent.setup_future_usage !== 'off_session') {
    console.error('Checkout Session meant to save a card saved none', session.id);
    return false;
  }
  const card = typeof method === 'string' ? null : method.card;
  const saved = await (await new AccountClient(env, accountId).direct()).saveTopUpCard({
    customerId: customer,
    paymentMethodId: typeof method === 'string' ? method : method.id,
    brand: card?.brand ?? null,
    last4: card?.last4 ?? null,
  });
  return saved !== null;
}
