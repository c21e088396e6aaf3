import { GatewayError } from '../errors';
import { DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS } from './idle';
import { chatStatusError, errorDetail, UnconfirmedRender, upstreamError, UpstreamTrouble, type UpstreamOutcome } from './upstream-errors';

/**
 * The one way the gateway calls a provider, chat and media alike: a timeout, the caller's abort,
 * one error-body reader (`readBody`) and one status table (`upstream-errors.ts`, a column for chat
 * and one for media). Chat and media
 * differ only in what they do with a failed answer (chat tries the next route; media asks the
 * same status URL again), which each states in its own wrapper below.
 */

/**
 * Time allowed for a streamed upstream to answer with headers: the idle timeout's bound, since
 * waiting for them is waiting for a first byte (the body may stream for longer, each read bounded
 * by `UPSTREAM_IDLE_TIMEOUT_MS`, `idle.ts`).
 */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS;

/**
 * A non-streamed answer's headers come once the whole answer is generated, so a long reasoning
 * answer is no stall: it gets this long (an upstream cut off after generating would bill the work).
 */
export const DEFAULT_NON_STREAMED_TIMEOUT_MS = 120_000;

/** One media upstream call answers within this (a status poll, a submission, a result read). */
export const MEDIA_CALL_TIMEOUT_MS = 30_000;

/** One HTTP call to a provider. */
export interface UpstreamCall {
  url: string;
  /** POST when there is a body, else GET. */
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: BodyInit;
}

/** What a call came to: an answer (any status), or none (unreachable, timed out, or the caller left). */
export type Reply =
  | { reached: true; response: Response }
  | { reached: false; timedOut: boolean; aborted: boolean; message: string; reason: unknown };

/**
 * Sends one call. The timeout covers the headers only (a streamed body may run longer); its timer
 * is cleared once they arrive rather than left pending for minutes. The caller's signal (a client
 * that left) aborts the call and, after the headers, the body it streams.
 */
export async function callUpstream(call: UpstreamCall, options: { timeoutMs: number; signal: AbortSignal }): Promise<Reply> {
  const attempt = new AbortController();
  const forward = () => attempt.abort(options.signal.reason);
  options.signal.addEventListener('abort', forward);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(new DOMException('The provider did not answer in time.', 'TimeoutError'));
  }, options.timeoutMs);
  try {
    const method = call.method ?? (call.body === undefined ? 'GET' : 'POST');
    return { reached: true, response: await fetch(call.url, { method, headers: call.headers, body: call.body, signal: attempt.signal }) };
  } catch (err) {
    options.signal.removeEventListener('abort', forward);
    return { reached: false, timedOut, aborted: options.signal.aborted, message: err instanceof Error ? err.message : String(err), reason: err };
  } finally {
    clearTimeout(timer);
  }
}

/** The one error-body reader: an answer's body as JSON when it parses, else its text. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * Chat's call (and speech's): never throws for upstream trouble; the caller decides between a
 * retry on the next route and an error, and releases the hold either way. The status table is
 * chat's column (`chatStatusError`).
 */
export async function sendUpstream(
  request: UpstreamCall,
  options: { timeoutMs: number; signal: AbortSignal; errorMessage: (status: number, body: unknown) => string },
): Promise<UpstreamOutcome> {
  const reply = await callUpstream(request, options);
  if (!reply.reached) {
    // The caller left (or gave up on this call): nobody waits for a retry on another route.
    if (reply.aborted) return { ok: false, retryable: false, error: new GatewayError('provider_unavailable', 'The request was cancelled before the provider answered.') };
    const message = reply.timedOut
      ? `The provider did not answer within ${Math.round(options.timeoutMs / 1000)} s.`
      : `The provider could not be reached (${reply.message}).`;
    return { ok: false, retryable: true, error: new GatewayError(reply.timedOut ? 'provider_error' : 'provider_unavailable', message, { retryAfter: 1 }) };
  }
  const { response } = reply;
  if (response.ok) return { ok: true, response };
  const detail = options.errorMessage(response.status, await readBody(response));
  return chatStatusError(response.status, detail, response.headers);
}

/** How a media call is made: its timeout, the caller's signal, and what a failed send means. */
export interface MediaCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * A billed submission whose answer is the render itself (OpenAI's synchronous images): no id
   * to ask again by. Once it may have reached the provider (a timeout after it was sent, a
   * connection dropped while the provider held it, an answer cut off) it fails as
   * `UnconfirmedRender`, final; only a provider that refuses connections now (refused, DNS) is
   * transport trouble, retried.
   */
  once?: boolean;
  /** The rail's own reading of an error status, before the media column (`upstreamError`). */
  statusError?: (status: number, body: unknown) => GatewayError | undefined;
}

/**
 * A media call answered whole (JSON when it parses), within `timeoutMs` for headers and body:
 * failures per `upstreamError` (media's column of the status table); no answer is transport
 * trouble (`UpstreamTrouble`), except the caller's own abort, which is thrown as it came, and a
 * `once` call that may have been delivered (`UnconfirmedRender`).
 */
export async function mediaCall(name: string, call: UpstreamCall, options: MediaCallOptions = {}): Promise<{ response: Response; body: unknown }> {
  const timeoutMs = options.timeoutMs ?? MEDIA_CALL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const seconds = Math.round(timeoutMs / 1000);
  const reply = await callUpstream(call, { timeoutMs, signal });
  if (!reply.reached) {
    if (options.signal?.aborted) throw reply.reason;
    const timedOut = reply.timedOut || timeout.aborted;
    if (options.once && timedOut) throw new UnconfirmedRender(`${name} did not answer within ${seconds} s.`);
    // workerd reports a refused connection and one dropped mid-request alike: ask whether the host takes connections at all.
    if (options.once && !timedOut && (await acceptsConnections(call.url))) throw new UnconfirmedRender(`${name} dropped the connection before answering (${reply.message}).`);
    throw new UpstreamTrouble(timedOut ? `${name} did not answer within ${seconds} s.` : `${name} could not be reached (${reply.message}).`);
  }
  let body: unknown;
  try {
    body = await readBody(reply.response);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const detail = err instanceof Error ? err.message : String(err);
    if (options.once && reply.response.ok) throw new UnconfirmedRender(`${name}'s answer was cut off (${detail}).`);
    throw new UpstreamTrouble(`${name} could not be read (${detail}).`);
  }
  if (!reply.response.ok) throw options.statusError?.(reply.response.status, body) ?? upstreamError(name, reply.response.status, body);
  return { response: reply.response, body };
}

/** How long the reachability check after a dropped `once` call waits. */
const REACHABILITY_TIMEOUT_MS = 5_000;

/**
 * Whether `url`'s host answers at all now (any HTTP status): after a `once` call failed without
 * an answer, a host that refuses connections never had the request (retry it); one that answers
 * dropped it mid-request (it may be rendering it). A host that came back in between reads as
 * "may have had it": the safe side, since it fails the job rather than render twice.
 */
async function acceptsConnections(url: string): Promise<boolean> {
  try {
    await fetch(new URL(url).origin, { method: 'HEAD', signal: AbortSignal.timeout(REACHABILITY_TIMEOUT_MS) });
    return true;
  } catch {
    return false;
  }
}

/** A media call's request and its caller's signal. */
export interface MediaInit {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: BodyInit;
  signal?: AbortSignal;
}

/**
 * A media JSON call (see `mediaCall`): the parsed answer. A POST is a submission (a fal request, a
 * Replicate prediction, an OpenAI video) that the provider bills, so it is sent `once`: one that
 * may have arrived unanswered is never sent again; the reads (GET) are asked again freely.
 */
export async function providerJson<T>(name: string, url: string, init: MediaInit): Promise<T> {
  const method = init.method ?? (init.body === undefined ? 'GET' : 'POST');
  const { body } = await mediaCall(name, { url, method, headers: init.headers, body: init.body }, { signal: init.signal, once: method === 'POST' });
  return body as T;
}

/** `errorDetail`, or the status when the body says nothing: the message of a media error body. */
export function detailOrStatus(status: number, body: unknown): string {
  return errorDetail(body) ?? `HTTP ${status}`;
}
