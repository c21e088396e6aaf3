import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { toGatewayError } from '../errors';
import { fundingDetails } from '../funding/funding-details';
import { x402Challenge } from '../x402/challenge-header';

/**
 * The one renderer of the error envelope (`app.onError`, the lazy route chain, the error page):
 * any thrown value becomes the spec's envelope, and a refusal for want of money gets
 * `error.funding` (every way to pay, D23) and, when x402 is on and the money short is the
 * account's own, its `PAYMENT-REQUIRED` challenge.
 */
export function renderError(err: unknown, c: Context<AppEnv>): Response {
  const error = toGatewayError(err, c.get('requestId'));
  const body = error.body();
  const { funding } = error.options;
  if (!funding) return c.json(body, error.status, error.headers());
  body.error = { ...body.error, funding: fundingDetails(c, funding) };
  return c.json(body, error.status, { ...error.headers(), ...(funding.organizationId === undefined && x402Challenge(c, funding, error.message)) });
}
