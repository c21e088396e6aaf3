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

/** A reader of `body` whose every read waits at most `idleMs`; a stalled read cancels the body. */
export function idleReader(body: ReadableStream<Uint8Array>, idleMs: number): IdleReader {
  const reader = body.getReader();
  const cancel = () => reader.cancel().catch(() => {});
  return {
    read() {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // Rejected before the cancel ends the pending read, so the race answers the stall.
          reject(new UpstreamStalled(idleMs));
          void cancel();
        }, idleMs);
      });
      return Promise.race([reader.read(), stalled]).finally(() => clearTimeout(timer));
    },
    cancel,
  };
}

/**
 * A whole upstream body, each read bounded by `idleMs`. Rejects with `UpstreamStalled`, or with
 * `signal`'s reason once it aborts (a client that left), the body cancelled either way.
 */
export async function readAllIdle(body: ReadableStream<Uint8Array> | null, idleMs: number, signal?: AbortSignal): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = idleReader(body, idleMs);
  let left: (reason: unknown) => void = () => {};
  const leaving = new Promise<never>((_, reject) => (left = reject));
  leaving.catch(() => {}); // observed by the race below, or never
  const onAbort = () => {
    left(signal?.reason);
    void reader.cancel();
  };
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort);
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), leaving]);
      if (next.done) break;
      chunks.push(next.value);
      size += next.value.byteLength;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
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
