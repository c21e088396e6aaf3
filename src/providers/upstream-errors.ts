import { GatewayError } from '../errors';
import { retryAfterMs } from './retry-after';

/**
 * What an upstream's answer means for the client and for a retry: the one status table (chat's
 * column and media's), the one reader of error-body messages, and the two kinds of failure a
 * media job tells apart (a provider's report, or transport trouble).
 */

/**
 * The provider reported that the render failed (fal's `COMPLETED` with `error`, Replicate's
 * `failed`/`canceled`, OpenAI's `failed`): a final answer. The job fails at once and frees its
 * hold; asking again, or submitting again, would only start (and bill) another render.
 */
export class ProviderFailure extends GatewayError {
  constructor(message: string, refusal = false) {
    super(refusal ? 'invalid_request' : 'provider_error', message);
  }
}

/**
 * An upstream answer that is not a failure report: unreachable, timed out, 429, or a 5xx without
 * a body that says what failed. Worth asking again (the same status URL, never a new submission).
 */
export class UpstreamTrouble extends GatewayError {
  constructor(message: string, readonly upstreamStatus?: number) {
    super('provider_unavailable', message, { retryAfter: 5 });
  }
}

/**
 * A billed submission that may have reached the provider but was never answered: the call timed
 * out after it was sent, or the connection dropped while the provider held it (the provider may
 * be rendering, and billing, it). Final, never sent again: a second send would be a second render
 * the provider bills. The job fails and its hold is released, so the client pays nothing; the
 * operator may have paid the provider for one render nobody received.
 */
export class UnconfirmedRender extends GatewayError {
  constructor(message: string) {
    super('provider_error', `${message} It was not sent again, since the provider may have started the render; nothing was charged.`);
  }
}

/** Whether an error is transport trouble a caller may retry (see `UpstreamTrouble`). */
export function isTransient(err: unknown): boolean {
  return err instanceof GatewayError && err.code === 'provider_unavailable';
}

export type UpstreamOutcome =
  | { ok: true; response: Response }
  /** Worth one retry on another route: 429, 5xx, refused or timed out, before any byte. */
  /** `status`: the upstream's HTTP status, when it answered. */
  | { ok: false; retryable: boolean; error: GatewayError; status?: number; retryAfterMs?: number };

/**
 * The status table has two columns, because "ask again" means two things. Chat asks the next
 * route (another provider, which has billed nothing), so any 429 or 5xx is worth it, and a 404
 * names the client's model (400). Media asks the same status URL again and must never submit a
 * billed render twice, so a 5xx that reports a failure is final, and a 404 is our own model or
 * request id (502). 400/422, 429 and 401/403 read the same in both.
 */

/**
 * Chat's column of the status table: a 429 or 5xx is retried on the next route (another provider,
 * which has billed nothing yet); the request's own faults and the gateway's are not.
 */
export function chatStatusError(status: number, detail: string, headers: Headers): UpstreamOutcome & { ok: false } {
  // A 429's or 503's `Retry-After` sets the route's breaker cool-down (src/products/chat/health).
  const wait = status === 429 || status === 503 ? retryAfterMs(headers.get('retry-after'), Date.now()) : undefined;
  return { ...chatStatusOutcome(status, detail, headers), status, ...(wait !== undefined && { retryAfterMs: wait }) };
}

function chatStatusOutcome(status: number, detail: string, headers: Headers): UpstreamOutcome & { ok: false } {
  if (status === 429) {
    return { ok: false, retryable: true, error: new GatewayError('provider_unavailable', `The provider is rate limiting: ${detail}`, { retryAfter: Number(headers.get('retry-after')) || 1 }) };
  }
  if (status >= 500) return { ok: false, retryable: true, error: new GatewayError('provider_error', `The provider failed (${status}): ${detail}`) };
  // 400/404/413/422: the request itself (context too long, bad tool schema) — the client can fix it.
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return { ok: false, retryable: false, error: new GatewayError('invalid_request', `The provider rejected the request: ${detail}`) };
  }
  // 401/403 and the rest are the gateway's configuration, not the client's fault.
  return { ok: false, retryable: false, error: new GatewayError('provider_error', `The provider refused the gateway's call (${status}): ${detail}`) };
}

/**
 * The media column, the same on every rail:
 * - 400, 422: the provider refused the request (its own words): `invalid_request` (400), final.
 * - 401, 403: our key is wrong; 404: the model or request id is unknown to the provider. Neither
 *   is the client's fault nor fixed by asking again: `provider_error` (502), final.
 * - 429, 5xx without a failure report, unreachable, timeout: `UpstreamTrouble` (503), retried.
 * - 5xx WITH a failure report (a `detail`/`error` body naming the failure): `provider_error`, final.
 */
export function upstreamError(name: string, status: number, body: unknown): GatewayError {
  const detail = errorDetail(body);
  if (status === 400 || status === 422) return new GatewayError('invalid_request', `The provider rejected the request: ${detail ?? `HTTP ${status}`}`);
  if (status === 429) return new UpstreamTrouble(`${name} is rate limiting${detail ? `: ${detail}` : ''}.`, status);
  if (status >= 500 && !detail) return new UpstreamTrouble(`${name} answered HTTP ${status}.`, status);
  return new GatewayError('provider_error', `${name} failed (${status}): ${detail ?? `HTTP ${status}`}`);
}

/**
 * The one error-body reader of the media rails: fal's `detail` (a string, or FastAPI's list of
 * `{msg}`), Replicate's `detail`/`title`, ElevenLabs' `detail.message`, OpenAI's `error.message`, or a plain `error` string.
 */
export function errorDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, error, title } = body as { detail?: unknown; error?: unknown; title?: unknown };
  if (typeof detail === 'string' && detail) return detail;
  // ElevenLabs: `{detail: {status, message}}`.
  const detailMessage = (detail as { message?: unknown } | null)?.message;
  if (typeof detailMessage === 'string' && detailMessage) return detailMessage;
  if (Array.isArray(detail)) return detail.map((item) => (item as { msg?: unknown } | null)?.msg).filter((msg) => typeof msg === 'string').join('; ') || undefined;
  if (typeof error === 'string' && error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message) return message;
  return typeof title === 'string' && title ? title : undefined;
}

