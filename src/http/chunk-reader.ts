/**
 * Reads a body into one buffer it reuses: a BYOB read for the runtime's byte streams (a request
 * body, an R2 object), so a 25 MB file leaves no trail of chunk buffers for the collector to
 * catch up with (each one a new allocation: bench/results.md, the transcription row). A stream
 * of JavaScript chunks (no BYOB) is read as it comes, its chunks cut to `max`.
 */

/** The buffer a BYOB read fills, and so the largest piece read. */
export const CHUNK_BYTES = 64 * 1024;

export class ChunkReader {
  readonly #byob: ReadableStreamBYOBReader | undefined;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #scratch: ArrayBuffer | undefined;
  /** The rest of a JavaScript chunk longer than a read asked for. */
  #pending: Uint8Array | undefined;

  constructor(body: ReadableStream<Uint8Array>) {
    try {
      this.#byob = body.getReader({ mode: 'byob' });
    } catch {
      // Not a byte stream: it locks nothing when it refuses.
      this.#reader = body.getReader();
    }
  }

  /**
   * The next bytes (1 to `max` of them), or null at the end. A view of the reader's own buffer:
   * valid until the next `read`, so copy what you keep (or await its write before reading on).
   */
  async read(max = CHUNK_BYTES): Promise<Uint8Array | null> {
    const want = Math.max(1, Math.min(max, CHUNK_BYTES));
    if (this.#byob) {
      for (;;) {
        const scratch = this.#scratch ?? new ArrayBuffer(CHUNK_BYTES);
        this.#scratch = undefined;
        const { done, value } = await this.#byob.read(new Uint8Array(scratch, 0, want));
        // The read transfers the buffer; the view it answers holds it now (none after a cancel).
        if (value) this.#scratch = value.buffer as ArrayBuffer;
        if (done) return null;
        if (value && value.length > 0) return value;
      }
    }
    for (;;) {
      const chunk = this.#pending ?? (await this.#next());
      if (chunk === null) return null;
      this.#pending = chunk.length > want ? chunk.subarray(want) : undefined;
      if (chunk.length > 0) return chunk.subarray(0, want);
    }
  }

  async cancel(reason?: unknown): Promise<void> {
    this.#pending = undefined;
    await (this.#byob ?? this.#reader)!.cancel(reason);
  }

  async #next(): Promise<Uint8Array | null> {
    const { done, value } = await this.#reader!.read();
    return done ? null : value;
  }
}
