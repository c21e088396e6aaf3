import type { Context } from 'hono';
import { database } from '../../db';
import { closeCardPayment, markCardPaid, markCardProcessing } from '../../db/funding';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { reverseChargeRefunds, reverseDispute, reverseRefund } from '../../funding/card-reversals';
import { creditFunding } from '../../funding/credit';
import { saveCheckoutCard } from '../../funding/saved-card';
import { stripeRail, verifiedEvent, type Stripe, type StripeRail } from '../../funding/stripe';
import { formatUsd } from '../../money';

/** Stripe amounts are in cents; one cent is 10,000 micro-dollars. */
const MICROS_PER_CENT = 10_000;
// Its own module, so `app.ts` caps the route without loading this one at startup.
export { STRIPE_WEBHOOK_MAX_BYTES } from './stripe-webhook-limit';

/**
 * `POST /webhooks/stripe`: verifies the signature against the raw body, then credits a paid
 * Checkout Session once (`stripe:<session id>` is the ledger's idempotency key, so Stripe's
 * retries, and deliveries that race, credit once) and, for a session made to save its card,
 * stores the card for auto top-up. A session completed with a delayed method is `processing` (it
 * keeps counting under the unclaimed cap until its payment succeeds or fails); a session that will
 * not be paid frees its place. Refunds and disputes debit the account once per Stripe object
 * (`src/funding/card-reversals.ts`). Any other event is acknowledged and ignored. A missing, bad
 * or stale signature is 400 and changes nothing.
 */
export async function stripeWebhook(c: Context<AppEnv>): Promise<Response> {
  const rail = stripeRail(c.env);
  if (!rail?.webhookSecret) throw new GatewayError('not_found', 'Card funding is not configured on this gateway.');
  const payload = await c.req.text();
  const event = await verifiedEvent(rail, payload, c.req.header('Stripe-Signature'));
  if (!event) throw new GatewayError('invalid_request', 'The Stripe-Signature header is missing, invalid or too old.', { param: 'Stripe-Signature' });

  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      // A completed session with a delayed method (a bank debit) is paid later: its own event credits it.
      if (event.data.object.payment_status === 'paid') return c.json({ received: true, credited: await creditSession(c.env, rail, event.data.object) });
      if (event.type === 'checkout.session.completed') await markProcessing(c.env, event.data.object);
      break;
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed': {
      const paymentId = event.data.object.metadata?.card_payment_id;
      if (paymentId) await closeCardPayment(database(c.env), paymentId);
      break;
    }
    case 'charge.refunded':
      return c.json({ received: true, ...(await reverseChargeRefunds(c.env, rail, event.data.object)) });
    case 'refund.created':
    case 'refund.updated':
    case 'charge.refund.updated':
      return c.json({ received: true, ...(await reverseRefund(c.env, rail, event.data.object)) });
    case 'charge.dispute.created':
    case 'charge.dispute.closed':
      return c.json({ received: true, ...(await reverseDispute(c.env, rail, event.data.object, event.type === 'charge.dispute.closed')) });
  }
  return c.json({ received: true });
}

async function markProcessing(env: Env, session: Stripe.Checkout.Session): Promise<void> {
  const paymentId = session.metadata?.card_payment_id;
  if (paymentId) await markCardProcessing(database(env), paymentId, session.id);
}

async function creditSession(env: Env, rail: StripeRail, session: Stripe.Checkout.Session): Promise<boolean> {
  const accountId = session.metadata?.account_id ?? session.client_reference_id;
  const cents = session.amount_total;
  if (!accountId || cents === null || cents <= 0 || (session.currency ?? 'usd').toLowerCase() !== 'usd') {
    // Not one of ours, or nothing to credit: acknowledged, so Stripe stops retrying, and logged.
    console.error('Stripe session without an account or a USD amount', session.id);
    return false;
  }
  const amountMicros = cents * MICROS_PER_CENT;
  const credited = await creditFunding(env, {
    accountId,
    amountMicros,
    source: 'card',
    idempotencyKey: `stripe:${session.id}`,
    note: `card $${formatUsd(amountMicros)}, Checkout Session ${session.id}`,
  });
  if (!credited) {
    // The account is gone: answering 5xx would make Stripe retry forever; the operator sees the log.
    console.error('Stripe payment for a missing account', session.id, accountId);
    return false;
  }
  const paymentId = session.metadata?.card_payment_id;
  if (paymentId) await markCardPaid(database(env), paymentId, session.id, Date.now());
  // A payment from the auto top-up page also saves its card; a repeated delivery saves the same card.
  await saveCheckoutCard(env, rail, accountId, session);
  return credited.applied;
}
