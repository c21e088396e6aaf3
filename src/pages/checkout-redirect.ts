import type { Context } from 'hono';
import type { Database } from '../db';
import { closeCardPayment, setCardSession } from '../db/funding';
import type { AppEnv } from '../env';
import type { Stripe } from '../funding/stripe';

/**
 * Sends the payer to the Checkout Session `create` makes for the open card payment `paymentId`.
 * When Stripe does not make one, the payment stops counting against the caps and the page says
 * that nothing was charged.
 */
export async function redirectToCheckout(
  c: Context<AppEnv>,
  db: Database,
  paymentId: string,
  create: () => Promise<Stripe.Checkout.Session>,
  refuse: (message: string, status: 502) => Response | Promise<Response>,
): Promise<Response> {
  try {
    const session = await create();
    if (!session.url) throw new Error(`Checkout Session ${session.id} has no URL`);
    await setCardSession(db, paymentId, session.id);
    return c.redirect(session.url, 303);
  } catch (err) {
    console.error('Checkout Session not created', err);
    await closeCardPayment(db, paymentId);
    return refuse('The card processor did not answer; nothing was charged. Try again in a minute.', 502);
  }
}
