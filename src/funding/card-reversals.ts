import { AccountClient } from '../accounts/account-client';
import { formatUsd } from '../money';
import { MICROS_PER_CENT } from './off-session';
import type { Stripe, StripeRail } from './stripe';

/**
 * Card money that goes back to the payer: refunds and disputes
 * (https://docs.stripe.com/api/events/types). Each is one ledger debit under a key derived from
 * Stripe's own object (`refund:<re_...>`, `dispute:<du_...>`), so `charge.refunded`,
 * `refund.created` and `charge.refund.updated` for one refund, and every redelivery of them, debit
 * it once; a partial refund debits its amount. A debit the balance cannot cover suspends the
 * account (D28). A dispute the operator wins is credited back once (`dispute-won:<du_...>`).
 */

/** What became of an event: how many debits were new, and whether the account is now suspended. */
export interface ReversalOutcome {
  debited: number;
  suspended: boolean;
}

const NOTHING: ReversalOutcome = { debited: 0, suspended: false };
const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : (ref?.id ?? null));

/**
 * The account a PaymentIntent paid: its own metadata (auto top-ups, and Checkout Sessions, which
 * copy `account_id` into `payment_intent_data.metadata`), else the Checkout Session that made it.
 * Null when it is not one of ours. Throws when Stripe cannot be read (the webhook answers 5xx and
 * Stripe delivers again).
 */
export async function accountOfPaymentIntent(rail: StripeRail, paymentIntentId: string): Promise<string | null> {
  const intent = await rail.client.retrievePaymentIntent(paymentIntentId);
  if (intent.metadata?.account_id) return intent.metadata.account_id;
  const sessions = await rail.client.listCheckoutSessions({ payment_intent: paymentIntentId, limit: 1 });
  const session = sessions.data[0];
  return session?.metadata?.account_id ?? session?.client_reference_id ?? null;
}

/** One refund: debited while it is `pending` or `succeeded`; a failed or canceled one is credited back if it was debited. */
export async function reverseRefund(env: Env, rail: StripeRail, refund: Stripe.Refund): Promise<ReversalOutcome> {
  const intentId = idOf(refund.payment_intent);
  if (!intentId || refund.currency.toLowerCase() !== 'usd' || refund.amount <= 0) return NOTHING;
  const accountId = await accountOfPaymentIntent(rail, intentId);
  if (!accountId) return NOTHING;
  const stub = await new AccountClient(env, accountId).direct();
  const amountMicros = refund.amount * MICROS_PER_CENT;
  if (refund.status === 'failed' || refund.status === 'canceled') {
    await stub.restoreCardPayment({ amountMicros, idempotencyKey: `refund-failed:${refund.id}`, ofKey: `refund:${refund.id}`, note: `refund ${refund.id} ${refund.status}: $${formatUsd(amountMicros)} back` });
    return NOTHING;
  }
  const result = await stub.reverseCardPayment({
    amountMicros,
    idempotencyKey: `refund:${refund.id}`,
    note: `card refund $${formatUsd(amountMicros)}, Refund ${refund.id} of PaymentIntent ${intentId}`,
    suspendReason: `refund ${refund.id} of $${formatUsd(amountMicros)} exceeded the balance`,
  });
  return result ? { debited: result.applied ? 1 : 0, suspended: result.suspended !== null } : NOTHING;
}

/** `charge.refunded` carries the Charge, not its refunds (API versions since 2022-11-15): each refund is read and reversed by its id. */
export async function reverseChargeRefunds(env: Env, rail: StripeRail, charge: Stripe.Charge): Promise<ReversalOutcome> {
  const outcome = { ...NOTHING };
  for await (const refund of rail.client.refundsOfCharge(charge.id)) {
    const one = await reverseRefund(env, rail, refund);
    outcome.debited += one.debited;
    outcome.suspended ||= one.suspended;
  }
  return outcome;
}

/**
 * `charge.dispute.created`: Stripe takes the disputed amount from the operator at once, so the
 * account is debited then (an inquiry, `warning_*`, moves no money and is left alone).
 * `charge.dispute.closed` `won` gives it back; `lost` changes nothing more.
 */
export async function reverseDispute(env: Env, rail: StripeRail, dispute: Stripe.Dispute, closed: boolean): Promise<ReversalOutcome> {
  const intentId = idOf(dispute.payment_intent);
  if (!intentId || dispute.currency.toLowerCase() !== 'usd' || dispute.amount <= 0 || dispute.status.startsWith('warning_')) return NOTHING;
  const accountId = await accountOfPaymentIntent(rail, intentId);
  if (!accountId) return NOTHING;
  const stub = await new AccountClient(env, accountId).direct();
  const amountMicros = dispute.amount * MICROS_PER_CENT;
  if (closed) {
    if (dispute.status === 'won') {
      await stub.restoreCardPayment({ amountMicros, idempotencyKey: `dispute-won:${dispute.id}`, ofKey: `dispute:${dispute.id}`, note: `dispute ${dispute.id} won: $${formatUsd(amountMicros)} back` });
    }
    return NOTHING;
  }
  const result = await stub.reverseCardPayment({
    amountMicros,
    idempotencyKey: `dispute:${dispute.id}`,
    note: `card dispute $${formatUsd(amountMicros)} (${dispute.reason}), Dispute ${dispute.id} of PaymentIntent ${intentId}`,
    suspendReason: `dispute ${dispute.id} of $${formatUsd(amountMicros)} exceeded the balance`,
  });
  return result ? { debited: result.applied ? 1 : 0, suspended: result.suspended !== null } : NOTHING;
}
