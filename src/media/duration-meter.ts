/** A length reader a file streams through unchanged. */
export interface DurationMeter {
  /** Passes every chunk on unchanged, reading as it goes. */
  stream: TransformStream<Uint8Array, Uint8Array>;
  /** Reads the file's next bytes (keeping none of them: the caller may reuse the buffer). */
  push(chunk: Uint8Array): void;
  /** The file ended (after its last `push`). */
  end(): void;
  /** The seconds read so far (final once the stream ended); undefined while none can be told. */
  seconds(): number | undefined;
}

/** A meter of a format's reader: `push` each chunk, then `end`; or pipe the file through `stream`. */
export function durationMeterOf(push: (chunk: Uint8Array) => void, seconds: () => number | undefined, end: () => void = () => {}): DurationMeter {
  return {
    push,
    end,
    seconds,
    stream: new TransformStream({
      transform(chunk, controller) {
        push(chunk);
        controller.enqueue(chunk);
      },
      flush: end,
    }),
  };
}
