import { GatewayError } from '../errors';
import type { UpstreamRequest } from '../providers/chat/types';

/** Time allowed for an upstream to answer with headers (the body may stream for longer). */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 120_000;

export type UpstreamOutcome =
  | { ok: true; response: Response }
  /** Worth one retry on another route: 429, 5xx, refused or timed out, before any byte. */
  | { ok: false; retryable: boolean; error: GatewayError };

/**
 * Sends one upstream request. Never throws for upstream trouble: the caller decides between a
 * retry on the next route and an error, and releases the hold either way.
 */
export async function sendUpstream(
  request: Omit<UpstreamRequest, 'body'> & { body: BodyInit },
  options: { timeoutMs: number; signal: AbortSignal; errorMessage: (status: number, body: unknown) => string },
): Promise<UpstreamOutcome> {
  // One controller per attempt: the caller's signal (a client that left) aborts it, and so does
  // the timeout, whose timer is cleared once headers arrive rather than left pending for minutes.
  const attempt = new AbortController();
  const forward = () => attempt.abort(options.signal.reason);
  options.signal.addEventListener('abort', forward);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new DOMException('The provider did not answer in time.', 'TimeoutError'));
  }, options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: attempt.signal });
  } catch (err) {
    options.signal.removeEventListener('abort', forward);
    const message = timedOut
      ? `The provider did not answer within ${Math.round(options.timeoutMs / 1000)} s.`
      : `The provider could not be reached (${err instanceof Error ? err.message : String(err)}).`;
    return { ok: false, retryable: true, error: new GatewayError(timedOut ? 'provider_error' : 'provider_unavailable', message, { retryAfter: 1 }) };
  } finally {
    clearTimeout(timer);
  }
  if (response.ok) return { ok: true, response };

  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  const detail = options.errorMessage(response.status, body);
  const status = response.status;
  if (status === 429) {
    return { ok: false, retryable: true, error: new GatewayError('provider_unavailable', `The provider is rate limiting: ${detail}`, { retryAfter: Number(response.headers.get('retry-after')) || 1 }) };
  }
  if (status >= 500) return { ok: false, retryable: true, error: new GatewayError('provider_error', `The provider failed (${status}): ${detail}`) };
  // 400/404/413/422: the request itself (context too long, bad tool schema) — the client can fix it.
  if (status === 400 || status === 404 || status === 413 || status === 422) {
    return { ok: false, retryable: false, error: new GatewayError('invalid_request', `The provider rejected the request: ${detail}`) };
  }
  // 401/403 and the rest are the gateway's configuration, not the client's fault.
  return { ok: false, retryable: false, error: new GatewayError('provider_error', `The provider refused the gateway's call (${status}): ${detail}`) };
}
