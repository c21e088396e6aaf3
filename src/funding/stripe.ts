import type Stripe from 'stripe';
import { hashesEqual } from '../accounts/credentials';
import { StripeApi } from './stripe-api';

/** Stripe's hosted Checkout, where the fund page's card form leads (its CSP `form-action`). */
const STRIPE_CHECKOUT_ORIGIN = 'https://checkout.stripe.com';
/** Stripe's default, and the spec's: a signature older than this is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface StripeRail {
  client: StripeApi;
  webhookSecret: string | undefined;
  /** Where Checkout pages live: Stripe's, or the local server `STRIPE_API_BASE` names. */
  checkoutOrigin: string;
}

/**
 * The card rail, or undefined when `STRIPE_SECRET_KEY` is not set (card funding off).
 * `STRIPE_API_BASE` points it at another host (a local Stripe-compatible server in tests).
 */
export function stripeRail(env: Env): StripeRail | undefined {
  const key = env.STRIPE_SECRET_KEY?.trim();
  if (!key) return undefined;
  const base = env.STRIPE_API_BASE?.trim() ? new URL(env.STRIPE_API_BASE.trim()) : undefined;
  return {
    client: new StripeApi(key, base?.origin),
    webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
    checkoutOrigin: base ? base.origin : STRIPE_CHECKOUT_ORIGIN,
  };
}

const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The event a webhook carries, once its `Stripe-Signature` checks out against the raw body
 * (https://docs.stripe.com/webhooks#verify-manually: `t=<seconds>,v1=<hex>`, each `v1` an
 * HMAC-SHA256 of `<t>.<body>` with the endpoint's secret, compared in constant time, `t` within
 * `WEBHOOK_TOLERANCE_SECONDS`); null for a missing, bad or stale signature.
 */
export async function verifiedEvent(rail: StripeRail, payload: string, signature: string | undefined, nowMs = Date.now()): Promise<Stripe.Event | null> {
  if (!rail.webhookSecret || !signature) return null;
  const parts = signature.split(',').map((part) => part.trim().split('=', 2) as [string, string?]);
  const timestamp = Number(parts.find(([name]) => name === 't')?.[1]);
  const signatures = parts.filter(([name, value]) => name === 'v1' && value).map(([, value]) => value!);
  if (!Number.isSafeInteger(timestamp) || signatures.length === 0) return null;
  if (Math.abs(nowMs / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS) return null;
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(rail.webhookSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const expected = hex(await crypto.subtle.sign('HMAC', key, encoder.encode(`${timestamp}.${payload}`)));
  if (!signatures.some((candidate) => hashesEqual(candidate, expected))) return null;
  try {
    return JSON.parse(payload) as Stripe.Event;
  } catch {
    return null;
  }
}

export type { Stripe };
