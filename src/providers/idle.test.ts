import { afterEach, describe, expect, it, vi } from 'vitest';
import { idleReader, readAllIdle, UpstreamStalled } from './idle';

const IDLE_MS = 1_000;

/** A stream whose chunks the test pushes; `cancelled` records the reader's cancel. */
function pushed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: () => void (state.cancelled = true),
  });
  return { body, state, push: (byte: number) => controller.enqueue(new Uint8Array([byte])), close: () => controller.close() };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('idleReader', () => {
  it('arms one timer for a whole stream of ready chunks, not one per chunk', async () => {
    const armed = vi.spyOn(globalThis, 'setTimeout');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({ pull: (c) => (sent++ < 1_000 ? c.enqueue(new Uint8Array([1])) : c.close()) });
    expect((await readAllIdle(body, IDLE_MS)).byteLength).toBe(1_000);
    expect(armed.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('stalls a read that waits the idle timeout, and cancels the body', async () => {
    vi.useFakeTimers();
    const { body, state, push } = pushed();
    const reader = idleReader(body, IDLE_MS);
    push(1);
    expect((await reader.read()).value).toEqual(new Uint8Array([1]));
    const waiting = reader.read();
    const failed = expect(waiting).rejects.toBeInstanceOf(UpstreamStalled);
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    expect(state.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await failed;
    expect(state.cancelled).toBe(true);
  });

  it('never stalls a stream whose chunks come more often than the timeout, however long it runs', async () => {
    vi.useFakeTimers();
    const { body, state, push, close } = pushed();
    const reader = idleReader(body, IDLE_MS);
    for (let i = 0; i < 10; i++) {
      const next = reader.read();
      await vi.advanceTimersByTimeAsync(IDLE_MS * 0.9);
      push(i);
      expect((await next).value).toEqual(new Uint8Array([i]));
    }
    // Time spent between reads (the consumer's) is not a wait: a read after a long pause still gets the whole timeout.
    await vi.advanceTimersByTimeAsync(IDLE_MS * 5);
    const last = reader.read();
    await vi.advanceTimersByTimeAsync(IDLE_MS - 1);
    close();
    expect((await last).done).toBe(true);
    expect(state.cancelled).toBe(false);
  });

  it("rejects a waiting read with the signal's reason when it aborts, and cancels the body", async () => {
    const { body, state } = pushed();
    const client = new AbortController();
    const reading = readAllIdle(body, IDLE_MS, client.signal);
    const reason = new Error('the client left');
    client.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(state.cancelled).toBe(true);
  });
});
