/** A length reader a file streams through unchanged. */
export interface DurationMeter {
  /** Passes every chunk on unchanged, reading as it goes. */
  stream: TransformStream<Uint8Array, Uint8Array>;
  /** The seconds read so far (final once the stream ended); undefined while none can be told. */
  seconds(): number | undefined;
}
