import { checkUrl } from './check';
import type { GuardOptions } from './options';
import { SELF_FETCH_HEADER, SELF_FETCH_TOKEN, SELF_REFUSAL_HEADER } from './self-fetch';

export interface GuardedFetchResult {
  response: Response;
  /** The URL that answered with `response`. */
  finalUrl: string;
  /** Every URL the request was redirected to, in order (empty when there was no redirect). */
  redirects: string[];
}

export type GuardedFetchOutcome =
  | { ok: true; result: GuardedFetchResult }
  /** `self`: the URL reached the gateway itself, which refused its own fetch. */
  | { ok: false; kind: 'rejected' | 'too_many_redirects' | 'network' | 'timeout'; reason: string; self?: true };

export type GuardedFetchFailure = Extract<GuardedFetchOutcome, { ok: false }>;

export const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// Dropped when a redirect leaves the origin, as the fetch standard does for Authorization.
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];

/**
 * fetch with redirect: 'manual', following up to 10 redirects itself and checking every hop with checkUrl.
 *
 * `timeoutMs` bounds the whole exchange, every hop and its DNS check included; the signal stays
 * attached to the returned response, so reading its body is bounded by the same deadline.
 */
export async function guardedFetch(
  url: string,
  init: RequestInit & { timeoutMs: number },
  options: GuardOptions & { fetcher?: typeof fetch },
): Promise<GuardedFetchOutcome> {
  const { timeoutMs, signal: callerSignal, ...request } = init;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
  const fetcher = options.fetcher ?? ((input, requestInit) => fetch(input, requestInit));

  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body;
  const headers = new Headers(request.headers);
  headers.set(SELF_FETCH_HEADER, SELF_FETCH_TOKEN);
  const redirects: string[] = [];
  let target = url;

  try {
    for (;;) {
      const verdict = await untilAborted(checkUrl(target, options), signal);
      if (!verdict.ok) {
        const reason = redirects.length === 0 ? verdict.reason : `The page redirected to ${target}, which cannot be fetched: ${verdict.reason}`;
        return { ok: false, kind: 'rejected', reason };
      }
      const current = verdict.url;
      const response = await untilAborted(fetcher(current.href, { ...request, method, headers, body, redirect: 'manual', signal }), signal);
      if (response.headers.has(SELF_REFUSAL_HEADER)) {
        await response.body?.cancel().catch(() => undefined);
        return { ok: false, kind: 'rejected', reason: `The host ${current.host} is this gateway; it cannot fetch itself.`, self: true };
      }
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return { ok: true, result: { response, finalUrl: current.href, redirects } };

      await response.body?.cancel().catch(() => undefined); // free the connection; its body is never read
      if (redirects.length >= MAX_REDIRECTS) {
        return { ok: false, kind: 'too_many_redirects', reason: `The page redirected more than ${MAX_REDIRECTS} times.` };
      }
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        return { ok: false, kind: 'rejected', reason: `The page redirected to an invalid URL (${location}).` };
      }
      // Browsers turn POST into GET on 301/302, and anything but HEAD into GET on 303.
      const status = response.status;
      if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const name of BODY_HEADERS) headers.delete(name);
      }
      if (next.origin !== current.origin) for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
      redirects.push(next.href);
      target = next.href;
    }
  } catch (err) {
    if (timeout.aborted) return { ok: false, kind: 'timeout', reason: `The page did not answer within ${timeoutMs} ms.` };
    if (callerSignal?.aborted) return { ok: false, kind: 'network', reason: 'The fetch was cancelled.' };
    const detail = err instanceof Error ? err.message : String(err);
    return { ok: false, kind: 'network', reason: `The page could not be fetched: ${detail}` };
  }
}

/** Settles with `promise`, or rejects as soon as `signal` aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
