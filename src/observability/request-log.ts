import { HTTPException } from 'hono/http-exception';
import { GatewayError, type ErrorCode } from '../errors';

/**
 * What the handlers that know them add to a request's log line (`c.var.log`, set by the
 * `requestLog` middleware). Never a secret, a prompt, a completion or a URL: ids, names, numbers.
 */
export interface RequestLogFields {
  account_id?: string;
  key_id?: string;
  /** The catalog's model id (`openai/gpt-4o-mini`). */
  model?: string;
  /** The provider that served (after a fallback, the second route's). */
  provider?: string;
  /** The charge, a decimal USD string as in `X-Service-Cost`. */
  cost_usd?: string;
  /** ms from the upstream call to its answer's headers (a fallback's included). */
  upstream_ms?: number;
  /** The web rail that served a scrape (`standard`, `stealth`). */
  rail?: string;
  /** D21: `hit` when this isolate's evidence of the key let the upstream start before the account's Durable Object confirmed the hold; `miss` when the hold was decided first. */
  decision_cache?: 'hit' | 'miss';
  /** Set by a handler whose work outlives its response (a stream): the line waits for it, so the cost is known. */
  until?: Promise<unknown>;
}

/** The one line of a request: what the middleware knows, and what the handlers added. */
export type RequestLine = {
  event: 'request';
  request_id: string;
  method: string;
  route: string | null;
  /** The path a request no route matched (`route` null): truncated, with secret-like segments taken out (`unmatchedPath`). */
  path?: string;
  status: number;
  total_ms: number;
  error_code?: string;
} & Omit<RequestLogFields, 'until'>;

/** Segments that may be a capability or a key: long base62/base64url runs, and anything shaped like our keys and codes. */
const SECRET_SEGMENT = /^(?:ak-|inv-|ct-|sk-).+|^[A-Za-z0-9_-]{20,}$/;
/** The most of an unmatched path a log line keeps. */
export const UNMATCHED_PATH_MAX = 200;

/** What a log line says of a path no route matched: segments that may be secrets as `…`, cut at 200 characters. */
export function unmatchedPath(path: string): string {
  const kept = path
    .split('/')
    .map((segment) => (SECRET_SEGMENT.test(segment) ? '…' : segment))
    .join('/');
  return kept.length > UNMATCHED_PATH_MAX ? `${kept.slice(0, UNMATCHED_PATH_MAX)}…` : kept;
}

export function requestLine(request: { requestId: string; method: string; route: string | null; path?: string; status: number; totalMs: number; error?: unknown }, fields: RequestLogFields): RequestLine {
  // Spelled out, so every line lists its fields in one order (undefined ones are left out by JSON.stringify).
  return {
    event: 'request',
    request_id: request.requestId,
    method: request.method,
    route: request.route,
    path: request.route === null && request.path !== undefined ? unmatchedPath(request.path) : undefined,
    status: request.status,
    account_id: fields.account_id,
    key_id: fields.key_id,
    model: fields.model,
    provider: fields.provider,
    cost_usd: fields.cost_usd,
    upstream_ms: fields.upstream_ms,
    total_ms: request.totalMs,
    rail: fields.rail,
    decision_cache: fields.decision_cache,
    error_code: request.status >= 400 ? errorCodeOf(request.error, request.status) : undefined,
  };
}

/** The envelope's `error.code` of what a handler threw (as `renderError` maps it), without logging anything. */
function errorCodeOf(error: unknown, status: number): ErrorCode | undefined {
  if (error instanceof GatewayError) return error.code;
  if (error instanceof HTTPException && error.status < 500) {
    if (error.status === 413) return 'request_too_large';
    if (error.status === 415) return 'unsupported_media_type';
    return 'invalid_request';
  }
  if (error !== undefined) return 'api_error';
  // An error answered without a throw (a page's own 404, a proxied status): the status says it.
  return status === 404 ? 'not_found' : undefined;
}

/** One line per queue message handled: its kind, its job, what became of it and how long it took. */
export interface JobLine {
  event: 'job';
  queue: string;
  kind: string;
  job_id?: string;
  account_id?: string;
  attempt: number;
  /** `dropped`: a message of no kind this consumer knows, acked so it is not retried forever. */
  outcome: 'done' | 'retry' | 'dropped';
  ms: number;
  /** The failure, shortened (error messages carry no secrets or prompts; see docs/operators/observability.md). */
  error?: string;
}

export function logJob(line: Omit<JobLine, 'event'>): void {
  const error = line.error === undefined ? {} : { error: withoutQueries(line.error) };
  console.log(JSON.stringify({ event: 'job', ...line, ...error }));
}

/** A URL's query may carry a credential (a provider key, a signed link): dropped from any text that is logged. */
export function withoutQueries(text: string): string {
  return text.replace(/(https?:\/\/[^\s?#"']+)\?[^\s"']*/g, '$1?[redacted]');
}
