/**
 * The Stripe simulator's refunds and disputes: money a paid PaymentIntent gives back, and the
 * events Stripe sends for it (https://docs.stripe.com/api/events/types).
 *
 * - A refund (https://docs.stripe.com/api/refunds/object), full or partial, of a succeeded
 *   PaymentIntent's charge: Stripe sends `charge.refunded` (the Charge, with `amount_refunded`
 *   cumulative and, as in API versions since 2022-11-15, no embedded `refunds` list) and
 *   `refund.created` (the Refund). `GET /v1/refunds?charge=` (or `payment_intent=`) lists them.
 * - A dispute (https://docs.stripe.com/api/disputes/object): `charge.dispute.created` with the
 *   Dispute (`status: needs_response`), then `charge.dispute.closed` with `won` or `lost`.
 */
import { fail, noSuch, now, randomId } from './stripe-api';
import type { PaymentIntent } from './stripe-payments';
import type { Json } from './server';

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  created: number;
  metadata: Record<string, string>;
  reason: string | null;
  [field: string]: unknown;
}

export interface Dispute {
  id: string;
  object: 'dispute';
  amount: number;
  charge: string;
  currency: string;
  payment_intent: string;
  status: 'needs_response' | 'under_review' | 'won' | 'lost' | 'warning_needs_response';
  reason: string;
  created: number;
  metadata: Record<string, string>;
  [field: string]: unknown;
}

/** An event to send: its type and the object it carries. */
export type Emission = { type: string; object: object };

export function startReversals(paymentIntents: Map<string, PaymentIntent>) {
  const refunds = new Map<string, Refund>();
  const disputes = new Map<string, Dispute>();

  function paidIntent(id: string): PaymentIntent & { latest_charge: string } {
    const intent = paymentIntents.get(id) ?? noSuch('payment_intent', id, 'payment_intent');
    if (intent.status !== 'succeeded' || !intent.latest_charge) fail(`PaymentIntent ${id} has no successful charge to refund or dispute.`, 'payment_intent');
    return intent as PaymentIntent & { latest_charge: string };
  }

  const refundedOf = (charge: string) => [...refunds.values()].filter((r) => r.charge === charge && r.status !== 'failed' && r.status !== 'canceled').reduce((sum, r) => sum + r.amount, 0);

  /** The Charge as `charge.refunded` carries it. */
  function chargeObject(intent: PaymentIntent & { latest_charge: string }): Json {
    const refunded = refundedOf(intent.latest_charge);
    return {
      id: intent.latest_charge,
      object: 'charge',
      amount: intent.amount,
      amount_captured: intent.amount,
      amount_refunded: refunded,
      currency: intent.currency,
      customer: intent.customer,
      livemode: false,
      metadata: {},
      paid: true,
      payment_intent: intent.id,
      payment_method: intent.payment_method,
      refunded: refunded >= intent.amount,
      status: 'succeeded',
      created: intent.created,
    };
  }

  /** Refunds `amount` cents (the rest of the charge by default): `charge.refunded` then `refund.created`. */
  function refund(paymentIntentId: string, amount?: number): { refund: Refund; events: Emission[] } {
    const intent = paidIntent(paymentIntentId);
    const left = intent.amount - refundedOf(intent.latest_charge);
    const value = amount ?? left;
    if (value <= 0 || value > left) fail(`Refund amount ($${(value / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`, 'amount');
    const made: Refund = { id: randomId('re_3', 22), object: 'refund', amount: value, charge: intent.latest_charge, currency: intent.currency, payment_intent: intent.id, status: 'succeeded', created: now(), metadata: {}, reason: null };
    refunds.set(made.id, made);
    return { refund: made, events: [{ type: 'charge.refunded', object: chargeObject(intent) }, { type: 'refund.created', object: made }] };
  }

  /** The cardholder disputes the charge (`amount` cents, all of it by default): `charge.dispute.created`. */
  function dispute(paymentIntentId: string, amount?: number): { dispute: Dispute; events: Emission[] } {
    const intent = paidIntent(paymentIntentId);
    const made: Dispute = { id: randomId('du_1', 22), object: 'dispute', amount: amount ?? intent.amount, charge: intent.latest_charge, currency: intent.currency, payment_intent: intent.id, status: 'needs_response', reason: 'fraudulent', created: now(), metadata: {} };
    disputes.set(made.id, made);
    return { dispute: made, events: [{ type: 'charge.dispute.created', object: made }] };
  }

  /** The card network decides: `charge.dispute.closed` with `won` (the money comes back) or `lost`. */
  function closeDispute(id: string, status: 'won' | 'lost'): Emission[] {
    const found = disputes.get(id) ?? noSuch('dispute', id, 'dispute');
    found.status = status;
    return [{ type: 'charge.dispute.closed', object: found }];
  }

  /** `GET /v1/refunds?charge=...` or `?payment_intent=...`, newest first. */
  function listRefunds(query: Json): Json {
    const charge = typeof query.charge === 'string' ? query.charge : null;
    const intent = typeof query.payment_intent === 'string' ? query.payment_intent : null;
    const data = [...refunds.values()].filter((r) => (charge === null || r.charge === charge) && (intent === null || r.payment_intent === intent)).reverse();
    return { object: 'list', data, has_more: false, url: '/v1/refunds' };
  }

  return { refunds, disputes, refund, dispute, closeDispute, listRefunds };
}
