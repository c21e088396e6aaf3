import { randomBase62 } from '../accounts/credentials';
import { database } from '../db';
import { closeCardPayment, committedCardMicros, openCardPayment, setCardSession } from '../db/funding';
import { MICROS_PER_USD } from '../money';
import { MICROS_PER_CENT } from './off-session';
import { saveCardCheckout } from './saved-card';
import type { StripeRail } from './stripe';

/** Card funding an unclaimed account may receive in all (spec "Limits"), counting payments still open or processing. */
export const UNCLAIMED_CARD_TOTAL_MICROS = 500 * MICROS_PER_USD;
/** Checkout Sessions live at least 30 minutes (Stripe); a minute more absorbs clock skew. */
export const CHECKOUT_LIFETIME_MS = 31 * 60 * 1000;

export interface CardCheckoutRequest {
  accountId: string;
  amountMicros: number;
  /** The account's card total (an unclaimed account's $500, counting payments still open or processing); null for none. */
  capMicros: number | null;
  successUrl: string;
  cancelUrl: string;
  /** Keep the card for auto top-up (the dashboard), joining the account's Stripe Customer when it has one. */
  saveCard?: { customerId: string | null };
}

export type CardCheckout =
  | { ok: true; url: string; paymentId: string }
  | { ok: false; reason: 'over_cap'; committedMicros: number }
  | { ok: false; reason: 'unavailable' };

/**
 * Opens a card payment, the one way every page does: a `card_payments` row that passes the cap
 * in one D1 statement (two payments started at once cannot pass it between them), then a Stripe
 * Checkout Session limited to cards (a delayed method would stay unpaid past the session's
 * expiry), whose PaymentIntent carries the account (a refund or dispute finds it), under our
 * payment id as Stripe's idempotency key. When Stripe does not make one, the payment stops
 * counting against the cap and nothing was charged.
 */
export async function openCardCheckout(env: Env, rail: StripeRail, request: CardCheckoutRequest): Promise<CardCheckout> {
  const db = database(env);
  const now = Date.now();
  const { accountId, amountMicros } = request;
  const payment = { id: `cp_${randomBase62(24)}`, accountId, amountMicros, status: 'open' as const, sessionId: null, createdAt: now, expiresAt: now + CHECKOUT_LIFETIME_MS, paidAt: null };
  if (!(await openCardPayment(db, payment, request.capMicros, now))) return { ok: false, reason: 'over_cap', committedMicros: await committedCardMicros(db, accountId, now) };
  const expiresAt = Math.floor(payment.expiresAt / 1000);
  try {
    const session = request.saveCard
      ? await saveCardCheckout(rail, { accountId, paymentId: payment.id, amountMicros, customerId: request.saveCard.customerId, successUrl: request.successUrl, cancelUrl: request.cancelUrl, expiresAt })
      : await rail.client.createCheckoutSession(
          {
            mode: 'payment',
            allowed_payment_method_types: ['card'],
            line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: Math.round(amountMicros / MICROS_PER_CENT), product_data: { name: `Gateway credit for account ${accountId.slice(0, 8)}` } } }],
            client_reference_id: accountId,
            metadata: { account_id: accountId, card_payment_id: payment.id },
            payment_intent_data: { metadata: { account_id: accountId, card_payment_id: payment.id } },
            success_url: request.successUrl,
            cancel_url: request.cancelUrl,
            expires_at: expiresAt,
          },
          payment.id,
        );
    if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
    await setCardSession(db, payment.id, session.id);
    return { ok: true, url: session.url, paymentId: payment.id };
  } catch (err) {
    console.error('Checkout Session not created', err);
    await closeCardPayment(db, payment.id);
    return { ok: false, reason: 'unavailable' };
  }
}
