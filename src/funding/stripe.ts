import Stripe from 'stripe';

/** Stripe's hosted Checkout, where the fund page's card form leads (its CSP `form-action`). */
const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';
/** Stripe's default, and the spec's: a signature older than this is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeRail {
  client: Stripe;
  webhookSecret: string | undefined;
  /** Where Checkout pages live: Stripe's, or the local server `STRIPE_API_BASE` names. */
  checkoutOrigin: string;
}

/**
 * The card rail, or undefined when `STRIPE_SECRET_KEY` is not set (card funding off). The client
 * uses fetch, as a Worker must; `STRIPE_API_BASE` points it at another host (a local
 * Stripe-compatible server in tests).
 */
export function stripeRail(env: Env): StripeRail | undefined {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key) return undefined;
  const base = env.STRIPE_API_BASE?.trim() ? new URL(env.STRIPE_API_BASE.trim()) : undefined;
  const client = new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 15_000,
    ...(base ? { host: base.hostname, port: Number(base.port) || (base.protocol === 'http:' ? 80 : 443), protocol: base.protocol === 'http:' ? 'http' : 'https' } : {}),
  });
  return { client, webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined, checkoutOrigin: base ? base.origin : STRIPE_CHECKOUT_ORIGIN };
}

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/**
 * The event a webhook carries, once its `Stripe-Signature` checks out against the raw body
 * (HMAC-SHA256, within `WEBHOOK_TOLERANCE_SECONDS`); null for a missing, bad or stale signature.
 */
export async function verifiedEvent(rail: StripeRail, payload: string, signature: string | undefined): Promise<Stripe.Event | null> {
  if (!rail.webhookSecret || !signature) return null;
  try {
    return await rail.client.webhooks.constructEventAsync(payload, signature, rail.webhookSecret, WEBHOOK_TOLERANCE_SECONDS, cryptoProvider);
  } catch {
    return null;
  }
}

export type { Stripe };
