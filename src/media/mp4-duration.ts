import { durationMeterOf, type DurationMeter } from './duration-meter';
import { movieSeconds, u32 } from './mp4-movie';

/**
 * Reads an MP4's length from its own `moov` box (`mp4-movie.ts`: the longest of what its headers
 * and sample tables give) while the file streams past, so a charge by the second never takes a
 * provider's word for it and the file is never held whole: top-level boxes are skipped by their
 * size, and only `moov` (the index, kilobytes to a few MB) is kept until it is read. The box may
 * come before the media data or after it (a file not prepared for streaming).
 */

/** A `moov` box larger than this is not read (the length stays unknown). */
const MAX_MOOV_BYTES = 16 * 1024 * 1024;

/**
 * Its `seconds()`: the movie's length once its `moov` was read; undefined before, or when it cannot
 * be timed. `audio`: a client's audio file, timed as its decoder plays it (`movieSeconds`); else a
 * provider's rendered video.
 */
export function mp4DurationMeter(options: { audio: boolean } = { audio: false }): DurationMeter {
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
          seconds = movieSeconds(moov, options);
          stopped = true;
        }
        continue;
      }
      // A box header: 32-bit size and type, then a 64-bit size when the first says 1.
      const need = headerFilled >= 8 && u32(header, 0) === 1 ? 16 : 8;
      const take = Math.min(need - headerFilled, chunk.length - offset);
      header.set(chunk.subarray(offset, offset + take), headerFilled);
      headerFilled += take;
      offset += take;
      if (headerFilled < need || (need === 8 && u32(header, 0) === 1)) continue;
      const size = need === 16 ? readU64(header, 8) : u32(header, 0);
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

function readU64(bytes: Uint8Array, offset: number): number {
  return u32(bytes, offset) * 2 ** 32 + u32(bytes, offset + 4);
}
