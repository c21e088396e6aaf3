import type { Context, Hono } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { executionContext } from '../execution-context';
import { formatUsd } from '../money';
import { challengeAmountMicros, x402Config } from './config';
import { setResponseHeader } from './middleware';
import { isBilledPath } from '../products';

export const X402_PREFIX = '/x402';

/** The new account's credentials on a keyless paid answer, shown once (contract, "x402"). */
export const ACCOUNT_ID_HEADER = 'X-Service-Account-Id';
export const API_KEY_HEADER = 'X-Service-Api-Key';
export const CLAIM_TOKEN_HEADER = 'X-Service-Claim-Token';

/**
 * `/x402/v1/...` (D23): every route under `/v1`, for agents that have a wallet and no key yet.
 * With a key (or x402 off, or a route that is not billed) the request is the `/v1` route's. A
 * keyless billed request is priced as its route would hold it (`priceRequest`: the same 400s) and
 * answered 402 with a challenge for that worst case, at least the minimum; the paid retry is
 * settled on chain first (the token's nonce makes a replay or a concurrent twin fail there, so one
 * payment makes one account), then a new anonymous account is made and credited, and the request
 * runs on `/v1` with its key. The answer, whatever its status, carries the account's credentials
 * once: the payment is on that account.
 */
export function keylessX402(app: Hono<AppEnv>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    const url = new URL(c.req.url);
    url.pathname = url.pathname.slice(X402_PREFIX.length);
    const config = x402Config(c.env);
    const forward = (headers: Headers, body: ArrayBuffer | null) =>
      Promise.resolve(app.fetch(new Request(url, { method: c.req.method, headers, body }), c.env, executionContext(c)));
    const bodyBytes = c.req.method === 'GET' || c.req.method === 'HEAD' ? null : await c.req.arrayBuffer();
    if (c.req.header('Authorization') || !config || c.req.method !== 'POST') return forward(new Headers(c.req.raw.headers), bodyBytes);
    if (!isBilledPath(url.pathname)) return forward(new Headers(c.req.raw.headers), bodyBytes);
    // Pricing needs the product's schemas: loaded by its first keyless payment, not at startup.
    const { priceRequest } = await import('../products/price-request');
    // Settlement and the anonymous account (D1, funding) load with the first keyless payment too.
    const [{ creditPayment, PAYMENT_RESPONSE, PAYMENT_SIGNATURE, paymentResponseHeader, settlePayment }, { createAnonymousAccount }, { limitKeylessAttempt }] = await Promise.all([
      import('./payment'),
      import('../accounts/anonymous'),
      import('./keyless-limit'),
    ]);

    const priced = await priceRequest(c, url.pathname, await readBody(bodyBytes, c.req.header('Content-Type')));
    const amount = challengeAmountMicros(config, priced.worstMicros);
    const signature = c.req.header(PAYMENT_SIGNATURE);
    if (!signature) {
      throw new GatewayError(
        'insufficient_credits',
        `This request costs up to $${formatUsd(priced.worstMicros)}. Pay $${formatUsd(amount)} with x402 (PAYMENT-REQUIRED) and retry with PAYMENT-SIGNATURE; the rest stays on a new account whose key the answer carries.`,
        { funding: { fundToken: null, availableMicros: 0, requiredMicros: priced.worstMicros, x402AmountMicros: amount } },
      );
    }
    const payment = await limitKeylessAttempt(c, () => settlePayment(c.env, config, signature, amount));
    const account = await createAnonymousAccount(c.env, { now: Date.now(), welcomeMicros: 0 });
    await creditPayment(c.env, account.accountId, payment);
    c.var.log.account_id = account.accountId;

    const headers = new Headers(c.req.raw.headers);
    headers.delete(PAYMENT_SIGNATURE);
    headers.set('Authorization', `Bearer ${account.apiKey}`);
    c.res = await forward(headers, bodyBytes);
    setResponseHeader(c, ACCOUNT_ID_HEADER, account.accountId);
    setResponseHeader(c, API_KEY_HEADER, account.apiKey);
    setResponseHeader(c, CLAIM_TOKEN_HEADER, account.claimToken);
    setResponseHeader(c, PAYMENT_RESPONSE, paymentResponseHeader(payment));
    return c.res;
  };
}

/** The body as JSON (any Content-Type, as the `/v1` routes read it, D20); 400 when it is not. */
/**
 * The body as its route reads it, for pricing: JSON, or the form of a multipart body (a
 * transcription's file; its pricer reads the fields and the file's size, every other route's
 * schema refuses a form).
 */
async function readBody(bytes: ArrayBuffer | null, contentType: string | undefined): Promise<unknown> {
  if (contentType && /^multipart\/form-data\b/i.test(contentType)) {
    try {
      return await new Response(bytes, { headers: { 'Content-Type': contentType } }).formData();
    } catch {
      throw new GatewayError('invalid_request', 'The multipart body could not be read.');
    }
  }
  try {
    return JSON.parse(new TextDecoder().decode(bytes ?? new ArrayBuffer(0)));
  } catch {
    throw new GatewayError('invalid_request', 'The request body must be JSON.');
  }
}
