import { GatewayError } from '../errors';

/**
 * An upstream that answers its headers and then goes silent must not hold a request (its hold,
 * its lease, a slot of the account's in-flight limit) for as long as it likes: every read of an
 * upstream body is bounded by an idle timeout, the longest wait allowed for the next byte.
 */

/** The longest wait for an upstream body's next byte, and for its headers (`DEFAULT_UPSTREAM_TIMEOUT_MS`). */
export const DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS = 60_000;

/** `UPSTREAM_IDLE_TIMEOUT_MS`, or the default when unset or not a positive number. */
export function upstreamIdleMs(env: Env): number {
  const configured = Number(env.UPSTREAM_IDLE_TIMEOUT_MS);
  return configured > 0 ? configured : DEFAULT_UPSTREAM_IDLE_TIMEOUT_MS;
}

/** The upstream sent no byte for the idle timeout; its body has been cancelled (502 `provider_error`). */
export class UpstreamStalled extends GatewayError {
  constructor(idleMs: number) {
    super('provider_error', `The provider sent nothing for ${formatSeconds(idleMs)}.`);
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

export interface IdleReader {
  /** The next chunk, or a rejection with `UpstreamStalled` when none came within the idle timeout. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops reading; the upstream body is cancelled. */
  cancel(): Promise<void>;
}

/**
 * A reader of `body` whose every read waits at most `idleMs`; a stalled read cancels the body, and
 * so does `signal` aborting (the waiting read, and every later one, rejects with its reason).
 * One timer per stream, not one per chunk: each read notes when it began waiting, and the timer,
 * when it fires, stalls a read that has waited `idleMs` or re-arms itself for what the waiting
 * read has left (a read answered at once costs a clock read, not a setTimeout and a clearTimeout).
 * A timer that fires with no read waiting lapses; the next read arms it again.
 */
export function idleReader(body: ReadableStream<Uint8Array>, idleMs: number, signal?: AbortSignal): IdleReader {
  const reader = body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** The read waiting now: when it began, and how to fail it. */
  let waiting: { since: number; reject: (reason: unknown) => void } | undefined;
  /** Why every read fails from now on: the stall, or the abort's reason. */
  let failure: { reason: unknown } | undefined;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const cancel = () => {
    stop();
    return reader.cancel().catch(() => {});
  };
  const fail = (reason: unknown) => {
    if (failure) return;
    failure = { reason };
    // Rejected before the cancel ends the pending read, so the read answers the failure.
    waiting?.reject(reason);
    waiting = undefined;
    void cancel();
  };
  const check = () => {
    timer = undefined;
    if (!waiting) return;
    const left = waiting.since + idleMs - Date.now();
    if (left > 0) timer = setTimeout(check, left);
    else fail(new UpstreamStalled(idleMs));
  };
  const onAbort = () => fail(signal?.reason);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const settled = () => {
    stop();
    signal?.removeEventListener('abort', onAbort);
  };
  return {
    read() {
      if (failure) return Promise.reject(failure.reason);
      return new Promise<ReadableStreamReadResult<Uint8Array>>((resolve, reject) => {
        const read = { since: Date.now(), reject };
        waiting = read;
        timer ??= setTimeout(check, idleMs);
        reader.read().then(
          (result) => {
            if (waiting === read) waiting = undefined;
            if (result.done) settled();
            resolve(result);
          },
          (err: unknown) => {
            if (waiting === read) waiting = undefined;
            settled();
            reject(err);
          },
        );
      });
    },
    cancel: () => {
      settled();
      return cancel();
    },
  };
}

/** `body` as a stream whose every read waits at most `idleMs`: a stall errors it with `UpstreamStalled` and cancels `body`. */
export function idleBoundedStream(body: ReadableStream<Uint8Array>, idleMs: number): ReadableStream<Uint8Array> {
  const reader = idleReader(body, idleMs);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await reader.read();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: () => reader.cancel(),
  });
}

/**
 * Fetches with `fetch(signal)`, the wait for the response's headers bounded by `idleMs` (then
 * `UpstreamStalled`, the fetch aborted), and its body by `idleMs` per read (`idleBoundedStream`).
 */
export async function fetchIdle(fetch: (signal: AbortSignal) => Promise<Response>, idleMs: number): Promise<Response> {
  const controller = new AbortController();
  const stalled = new UpstreamStalled(idleMs);
  const timer = setTimeout(() => controller.abort(stalled), idleMs);
  let response: Response;
  try {
    response = await fetch(controller.signal);
  } catch (err) {
    throw controller.signal.aborted ? stalled : err;
  } finally {
    clearTimeout(timer);
  }
  if (!response.body) return response;
  return new Response(idleBoundedStream(response.body, idleMs), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * A whole upstream body, each read bounded by `idleMs`. Rejects with `UpstreamStalled`, or with
 * `signal`'s reason once it aborts (a client that left), the body cancelled either way.
 */
export async function readAllIdle(body: ReadableStream<Uint8Array> | null, idleMs: number, signal?: AbortSignal): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = idleReader(body, idleMs, signal);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    chunks.push(next.value);
    size += next.value.byteLength;
  }
  if (signal?.aborted) throw signal.reason;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
