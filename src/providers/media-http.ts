import { GatewayError } from '../errors';
import type { RenderedImage } from '../media/images/rail';

/**
 * What the queue-style media rails (fal, Replicate) share: a JSON call with the provider's errors
 * mapped onto ours, polling delays, and the download of a finished file.
 */

/** Polls start quickly and slow down: most images finish within seconds, videos within minutes. */
export const FIRST_POLL_MS = 250;
export const MAX_POLL_MS = 2_000;

/** One media upstream call answers within this (a status poll, a submission, a result read). */
export const MEDIA_CALL_TIMEOUT_MS = 30_000;

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

/** Whether an error is transport trouble a caller may retry (see `UpstreamTrouble`). */
export function isTransient(err: unknown): boolean {
  return err instanceof GatewayError && err.code === 'provider_unavailable';
}

/**
 * The one status table of the media rails, the same on every rail:
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
 * `{msg}`), Replicate's `detail`/`title`, OpenAI's `error.message`, or a plain `error` string.
 */
export function errorDetail(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { detail, error, title } = body as { detail?: unknown; error?: unknown; title?: unknown };
  if (typeof detail === 'string' && detail) return detail;
  if (Array.isArray(detail)) return detail.map((item) => (item as { msg?: unknown } | null)?.msg).filter((msg) => typeof msg === 'string').join('; ') || undefined;
  if (typeof error === 'string' && error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  if (typeof message === 'string' && message) return message;
  return typeof title === 'string' && title ? title : undefined;
}

/** Calls a provider and reads its JSON, within `MEDIA_CALL_TIMEOUT_MS`; failures per `upstreamError`. */
export async function providerJson<T>(name: string, url: string, init: RequestInit): Promise<T> {
  const timeout = AbortSignal.timeout(MEDIA_CALL_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timeout]) : timeout });
    text = await response.text();
  } catch (err) {
    if (init.signal?.aborted) throw err;
    throw new UpstreamTrouble(`${name} could not be reached (${err instanceof Error ? err.message : String(err)}).`);
  }
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  if (response.ok) return body as T;
  throw upstreamError(name, response.status, body);
}

/**
 * Polls `call` (a status read) until `done` says the answer is final, slowing from
 * `FIRST_POLL_MS` to `MAX_POLL_MS`; transport trouble is polled through (the same URL again),
 * until `deadline`. The request is never submitted again here.
 */
export async function pollUntil<T>(name: string, call: () => Promise<T>, done: (answer: T) => boolean, deadline: number, signal: AbortSignal): Promise<T> {
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
    if (Date.now() > deadline) throw new GatewayError('provider_error', `${name} did not finish the render in time.`);
    await sleep(wait, signal);
    const answer = await retryTransient(call, deadline);
    if (answer !== undefined && done(answer)) return answer;
  }
}

/** `call`, asked again after transport trouble until `deadline`; undefined if it was trouble this time. */
async function retryTransient<T>(call: () => Promise<T>, deadline: number): Promise<T | undefined> {
  try {
    return await call();
  } catch (err) {
    if (isTransient(err) && Date.now() < deadline) return undefined;
    throw err;
  }
}

/** `call` (a read of a finished result), asked again after transport trouble until `deadline`. */
export async function readWithRetry<T>(call: () => Promise<T>, deadline: number, signal: AbortSignal): Promise<T> {
  for (let wait = FIRST_POLL_MS; ; wait = Math.min(MAX_POLL_MS, wait * 2)) {
    const answer = await retryTransient(call, deadline);
    if (answer !== undefined) return answer;
    await sleep(wait, signal);
  }
}

/** A finished file from the provider's CDN, with its type. */
export async function downloadImage(name: string, url: string, declaredType: string | undefined, signal: AbortSignal): Promise<RenderedImage> {
  const response = await fetch(url, { signal }).catch(() => null);
  if (!response?.ok) throw new GatewayError('provider_error', `${name}'s image ${url} could not be downloaded.`);
  const contentType = (response.headers.get('content-type') ?? declaredType ?? 'image/png').split(';')[0]!.trim();
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
}

/** `url` when it is on `base`'s origin: a provider's answer never sends our key elsewhere. */
export function sameOrigin(url: string | undefined, base: string): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin === new URL(base).origin ? url : undefined;
  } catch {
    return undefined;
  }
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
