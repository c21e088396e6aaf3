/**
 * Reads an MP4's length from its own `moov/mvhd` box (ISO/IEC 14496-12: the movie header's
 * timescale and duration) while the file streams past, so a charge by the second never takes a
 * provider's word for it and the file is never held whole: top-level boxes are skipped by their
 * size, and only `moov` (the index, kilobytes to a few MB) is kept until it is read. The box may
 * come before the media data or after it (a file not prepared for streaming).
 */

import { durationMeterOf, type DurationMeter } from './duration-meter';

/** A `moov` box larger than this is not read (the length stays unknown). */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

/** Its `seconds()`: the movie's length once its `mvhd` was read; undefined before, or when it has none. */
export function mp4DurationMeter(): DurationMeter {
  let seconds: number | undefined;
  const header = new Uint8Array(16);
  let headerFilled = 0;
  /** Bytes of the current box's body still to pass over (or to keep, for `moov`). */
  let remaining = 0;
  let moov: Uint8Array | null = null;
  let moovFilled = 0;
  /** Done: the length was read, or the layout cannot be followed further. */
  let stopped = false;

  const scan = (chunk: Uint8Array) => {
    for (let offset = 0; offset < chunk.length && !stopped; ) {
      if (remaining > 0) {
        const take = Math.min(remaining, chunk.length - offset);
        if (moov) {
          moov.set(chunk.subarray(offset, offset + take), moovFilled);
          moovFilled += take;
        }
        remaining -= take;
        offset += take;
        if (remaining === 0 && moov) {
          seconds = movieSeconds(moov);
          stopped = true;
        }
        continue;
      }
      // A box header: 32-bit size and type, then a 64-bit size when the first says 1.
      const need = headerFilled >= 8 && readU32(header, 0) === 1 ? 16 : 8;
      const take = Math.min(need - headerFilled, chunk.length - offset);
      header.set(chunk.subarray(offset, offset + take), headerFilled);
      headerFilled += take;
      offset += take;
      if (headerFilled < need || (need === 8 && readU32(header, 0) === 1)) continue;
      const size = need === 16 ? readU64(header, 8) : readU32(header, 0);
      const type = String.fromCharCode(header[4]!, header[5]!, header[6]!, header[7]!);
      headerFilled = 0;
      // Size 0 (the box runs to the end of the file) or one smaller than its header: nothing more to find.
      if (size < need) {
        stopped = true;
        continue;
      }
      remaining = size - need;
      if (type === 'moov') {
        if (remaining > MAX_MOOV_BYTES) {
          stopped = true;
          continue;
        }
        moov = new Uint8Array(remaining);
        moovFilled = 0;
        if (remaining === 0) stopped = true;
      }
    }
  };

  return durationMeterOf(
    (chunk) => {
      if (!stopped) scan(chunk);
    },
    () => seconds,
  );
}

/** The length `mvhd` gives inside a `moov` box's body, in seconds; undefined without one. */
function movieSeconds(moov: Uint8Array): number | undefined {
  for (let offset = 0; offset + 8 <= moov.length; ) {
    const size = readU32(moov, offset);
    const type = String.fromCharCode(moov[offset + 4]!, moov[offset + 5]!, moov[offset + 6]!, moov[offset + 7]!);
    if (size < 8 || offset + size > moov.length) return undefined;
    if (type === 'mvhd') {
      const body = moov.subarray(offset + 8, offset + size);
      // Version 1 has 64-bit creation, modification and duration fields; version 0, 32-bit ones.
      const version = body[0];
      const [timescale, duration] =
        version === 1 && body.length >= 32 ? [readU32(body, 20), readU64(body, 24)] : body.length >= 20 ? [readU32(body, 12), readU32(body, 16)] : [0, 0];
      return timescale > 0 && duration > 0 ? duration / timescale : undefined;
    }
    offset += size;
  }
  return undefined;
}

function readU32(bytes: Uint8Array, offset: number): number {
  return ((bytes[offset]! << 24) >>> 0) + (bytes[offset + 1]! << 16) + (bytes[offset + 2]! << 8) + bytes[offset + 3]!;
}

function readU64(bytes: Uint8Array, offset: number): number {
  return readU32(bytes, offset) * 2 ** 32 + readU32(bytes, offset + 4);
}
