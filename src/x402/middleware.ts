import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AppEnv } from '../env';
import { holdFailureError } from '../accounts/failures';
import { x402Config } from './config';

/** Sets a header on the response a handler made, even an immutable one (a proxied upstream's). */
export function setResponseHeader(c: Context<AppEnv>, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

/**
 * A keyed request that carries `PAYMENT-SIGNATURE` (x402, D23): the key is checked, the payment
 * settled on chain and credited to the key's account (once per authorization), then the request
 * runs and is charged as usual; the answer carries `PAYMENT-RESPONSE`. Only called when the header
 * is present: a request without it does no extra work. With x402 off the header is ignored.
 */
export async function payThenServe(c: Context<AppEnv>, next: Next, header: string): Promise<void> {
  const config = x402Config(c.env);
  if (!config) return next();
  const caller = c.get('caller');
  // The key first: money is never taken for a key that cannot spend it.
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  // Settlement (D1, funding, the chain's wire format) loads with the first paid request, not at startup (docs/contributors/architecture.md, "Startup").
  const [{ creditPayment, PAYMENT_RESPONSE, paymentResponseHeader, settlePayment }, { limitKeylessAttempt }] = await Promise.all([import('./payment'), import('./keyless-limit')]);
  // A free account's key costs nothing: failing payments are limited per IP here too, before any chain call.
  const payment = await limitKeylessAttempt(c, () => settlePayment(c.env, config, header));
  await creditPayment(c.env, caller.accountId, payment);
  await next();
  setResponseHeader(c, PAYMENT_RESPONSE, paymentResponseHeader(payment));
}

/**
 * x402 beside the key check (D23), after `apiKey()` on every keyed route: a request that carries
 * `PAYMENT-SIGNATURE` pays, then runs (`payThenServe`); one without it passes straight on.
 */
export function x402Payment(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const payment = c.req.header('PAYMENT-SIGNATURE');
    return payment === undefined ? next() : payThenServe(c, next, payment);
  };
}
