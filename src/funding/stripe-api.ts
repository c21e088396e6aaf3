import type Stripe from 'stripe';

/**
 * The few calls of Stripe's API that card funding makes, over fetch. The official `stripe` package
 * is used for its types only: its runtime (about 700 KiB of resource classes, most never called)
 * would be parsed and run at every cold start of the Worker (issue #25). This speaks the wire the
 * package speaks (https://docs.stripe.com/api): form-encoded bodies with bracket nesting,
 * `Authorization: Bearer`, the package's pinned `Stripe-Version`, `Idempotency-Key` on creates,
 * JSON answers and `{ error: { type, code, message, ... } }` failures.
 */

/** The API version of `stripe` 23.1.0 (its `apiVersion.js`): webhook event shapes follow it. */
export const STRIPE_API_VERSION = '2026-10-28.endive';
const TIMEOUT_MS = 15_000;
/** Sent once more after a network error, a 409 (a concurrent request with the same key) or a 5xx, as the package's `maxNetworkRetries: 1`. */
const RETRIES = 1;
const RETRY_DELAY_MS = 500;

/** Any parameters object: nested objects and arrays are bracket-encoded. */
type Params = object;

/**
 * A refused or failed call. `status` is null when Stripe could not be reached or did not answer
 * in time; `type` is Stripe's (`card_error`, `invalid_request_error`, `api_error`, ...) or
 * `connection_error` then.
 */
export class StripeApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly type: string,
    readonly code: string | null,
    readonly declineCode: string | null,
    readonly paymentIntentId: string | null,
  ) {
    super(message);
    this.name = 'StripeApiError';
  }

  /** Worth asking again (with the same idempotency key): Stripe could not be asked, or could not answer. */
  get transient(): boolean {
    return this.status === null || this.status === 409 || this.status === 429 || this.status >= 500 || this.type === 'api_error';
  }
}

/** `line_items[0][price_data][unit_amount]=2500`: Stripe's form encoding of nested parameters. */
export function stripeForm(params: Params): string {
  const pairs: [string, string][] = [];
  const walk = (prefix: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((item, i) => walk(`${prefix}[${i}]`, item));
    else if (typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(`${prefix}[${key}]`, inner);
    else pairs.push([prefix, String(value)]);
  };
  for (const [key, value] of Object.entries(params)) walk(key, value);
  return pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

export class StripeApi {
  readonly #key: string;
  readonly #origin: string;

  constructor(key: string, origin = 'https://api.stripe.com') {
    this.#key = key;
    this.#origin = origin;
  }

  createCheckoutSession(params: Stripe.Checkout.SessionCreateParams, idempotencyKey: string): Promise<Stripe.Checkout.Session> {
    return this.#call('POST', '/v1/checkout/sessions', params, idempotencyKey);
  }

  listCheckoutSessions(params: Stripe.Checkout.SessionListParams): Promise<Stripe.ApiList<Stripe.Checkout.Session>> {
    return this.#call('GET', '/v1/checkout/sessions', params);
  }

  createPaymentIntent(params: Stripe.PaymentIntentCreateParams, idempotencyKey: string): Promise<Stripe.PaymentIntent> {
    return this.#call('POST', '/v1/payment_intents', params, idempotencyKey);
  }

  retrievePaymentIntent(id: string, expand: string[] = []): Promise<Stripe.PaymentIntent> {
    return this.#call('GET', `/v1/payment_intents/${encodeURIComponent(id)}`, expand.length ? { expand } : {});
  }

  /** Every refund of a charge, page after page. */
  async *refundsOfCharge(chargeId: string): AsyncGenerator<Stripe.Refund> {
    let after: string | undefined;
    for (;;) {
      const page: Stripe.ApiList<Stripe.Refund> = await this.#call('GET', '/v1/refunds', { charge: chargeId, limit: 100, starting_after: after });
      yield* page.data;
      if (!page.has_more || page.data.length === 0) return;
      after = page.data[page.data.length - 1]!.id;
    }
  }

  async #call<T>(method: 'GET' | 'POST', path: string, params: Params, idempotencyKey?: string): Promise<T> {
    const form = stripeForm(params);
    const url = `${this.#origin}${path}${method === 'GET' && form ? `?${form}` : ''}`;
    const headers: Record<string, string> = { Authorization: `Bearer ${this.#key}`, 'Stripe-Version': STRIPE_API_VERSION };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      // A create is safe to send twice only under one key: Stripe answers the second with the first's result.
      headers['Idempotency-Key'] = idempotencyKey ?? crypto.randomUUID();
    }
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once<T>(url, { method, headers, ...(method === 'POST' ? { body: form } : {}) });
      } catch (err) {
        if (!(err instanceof StripeApiError) || !err.transient || err.status === 429 || attempt >= RETRIES) throw err;
        await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
      }
    }
  }

  async #once<T>(url: string, init: RequestInit): Promise<T> {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      throw new StripeApiError(`Stripe could not be reached: ${err instanceof Error ? err.message : String(err)}`, null, 'connection_error', null, null, null);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new StripeApiError(`Stripe answered ${res.status} with no JSON`, res.status, 'api_error', null, null, null);
    }
    if (res.ok) return body as T;
    const error = (body as { error?: { type?: string; code?: string; decline_code?: string; message?: string; payment_intent?: { id?: string } } }).error ?? {};
    throw new StripeApiError(error.message ?? `Stripe answered ${res.status}`, res.status, error.type ?? 'api_error', error.code ?? null, error.decline_code ?? null, error.payment_intent?.id ?? null);
  }
}
