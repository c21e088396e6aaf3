import { StripeApiError } from './stripe-api';
import type { StripeRail } from './stripe';

/** Stripe amounts are in cents; one cent is 10,000 micro-dollars. */
export const MICROS_PER_CENT = 10_000;

/** One off-session charge of a saved card: what an auto top-up asks Stripe for. */
export interface OffSessionCharge {
  accountId: string;
  /** The top-up's number; with the account it makes the Stripe idempotency key. */
  n: number;
  amountMicros: number;
  customerId: string;
  paymentMethodId: string;
}

/**
 * What became of a charge. `retry` is true only when Stripe could not be asked or could not answer
 * (network, 5xx, rate limit): the same request may be sent again under the same idempotency key.
 * Every other failure (a declined card, a card that needs its holder, a detached card, a
 * configuration error) is final.
 */
export type OffSessionOutcome =
  | { ok: true; paymentIntentId: string; amountMicros: number }
  | { ok: false; retry: false; code: string; message: string; paymentIntentId: string | null }
  | { ok: false; retry: true; message: string };

export type OffSessionCharger = (charge: OffSessionCharge) => Promise<OffSessionOutcome>;

/** The Stripe idempotency key of top-up `n`: a retry after a crash is answered with the same PaymentIntent. */
export const topUpIdempotencyKey = (accountId: string, n: number) => `topup:${accountId}:${n}`;

/**
 * Charges a saved card without its holder (https://docs.stripe.com/payments/save-during-payment):
 * a PaymentIntent created and confirmed at once with `off_session: true`. Never throws.
 */
export async function chargeSavedCard(rail: StripeRail | undefined, charge: OffSessionCharge): Promise<OffSessionOutcome> {
  if (!rail) return { ok: false, retry: false, code: 'card_payments_off', message: 'Card payments are not configured on this gateway.', paymentIntentId: null };
  try {
    const intent = await rail.client.createPaymentIntent(
      {
        amount: Math.round(charge.amountMicros / MICROS_PER_CENT),
        currency: 'usd',
        customer: charge.customerId,
        payment_method: charge.paymentMethodId,
        off_session: true,
        confirm: true,
        description: `Auto top-up of account ${charge.accountId.slice(0, 8)}`,
        metadata: { account_id: charge.accountId, top_up: String(charge.n) },
      },
      topUpIdempotencyKey(charge.accountId, charge.n),
    );
    if (intent.status === 'succeeded') return { ok: true, paymentIntentId: intent.id, amountMicros: intent.amount_received * MICROS_PER_CENT };
    return { ok: false, retry: false, code: intent.status, message: `The payment did not complete (${intent.status}).`, paymentIntentId: intent.id };
  } catch (err) {
    return failure(err);
  }
}

function failure(err: unknown): OffSessionOutcome {
  if (!(err instanceof StripeApiError)) return { ok: false, retry: true, message: err instanceof Error ? err.message : String(err) };
  // Network, 5xx, rate limit, or 409 (the same key still being processed by Stripe): ask again later.
  if (err.transient) return { ok: false, retry: true, message: err.message };
  return { ok: false, retry: false, code: err.code ?? err.declineCode ?? err.type, message: err.message, paymentIntentId: err.paymentIntentId };
}
