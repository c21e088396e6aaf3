import { durationMeterOf, type DurationMeter } from './duration-meter';

/**
 * Reads a WAV file's length from its own RIFF chunks while it streams past: the `fmt ` chunk's
 * rate, and the `data` chunk's size, counted as its bytes pass (a header that states more than
 * the file holds, or the 0 / 0xFFFFFFFF of a recorder that streamed, is never believed beyond the
 * bytes that came). Only sample-per-sample encodings are timed (PCM, float, A-law, µ-law and the
 * extensible header), at the lowest byte rate the header allows: a decoder plays by the sample
 * rate, channels and sample size, so a stated byte rate above them would shorten the length read,
 * never the audio. Other chunks are skipped by their size; only a chunk header (8 bytes) and the
 * `fmt ` body (16 bytes read) are ever held.
 */

const FMT_BYTES = 16;

export function wavDurationMeter(): DurationMeter {
  const header = new Uint8Array(FMT_BYTES);
  let filled = 0;
  /** What the next bytes are: the RIFF header, a chunk header, the fmt body, a skipped body, the data. */
  let phase: 'riff' | 'chunk' | 'fmt' | 'skip' | 'data' | 'stopped' = 'riff';
  let need = 12;
  let remaining = 0;
  let byteRate = 0;
  let dataBytes: number | undefined;
  let declared = 0;

  const scan = (chunk: Uint8Array) => {
    for (let offset = 0; offset < chunk.length && phase !== 'stopped'; ) {
      if (phase === 'skip' || phase === 'data') {
        const take = Math.min(remaining, chunk.length - offset);
        remaining -= take;
        offset += take;
        if (phase === 'data') dataBytes = (dataBytes ?? 0) + take;
        if (remaining === 0) phase = phase === 'data' ? 'stopped' : 'chunk';
        need = 8;
        continue;
      }
      const take = Math.min(need - filled, chunk.length - offset);
      header.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled < need) continue;
      filled = 0;
      if (phase === 'riff') {
        phase = text(header, 0) === 'RIFF' && text(header, 8) === 'WAVE' ? 'chunk' : 'stopped';
        need = 8;
      } else if (phase === 'fmt') {
        byteRate = lowestByteRate(header);
        phase = remaining > 0 ? 'skip' : 'chunk';
        need = 8;
      } else {
        const id = text(header, 0);
        const size = u32le(header, 4);
        // A chunk's body is padded to an even length.
        const padded = size + (size & 1);
        if (id === 'fmt ' && size >= FMT_BYTES) {
          phase = 'fmt';
          need = FMT_BYTES;
          remaining = padded - FMT_BYTES;
        } else if (id === 'data') {
          if (byteRate === 0) phase = 'stopped';
          else {
            phase = 'data';
            dataBytes = 0;
            // A streamed recording states 0 or the largest size: its data runs to the end of the file.
            declared = size === 0 || size === 0xffffffff ? Number.MAX_SAFE_INTEGER : size;
            remaining = declared;
          }
        } else {
          phase = 'skip';
          remaining = padded;
          if (remaining === 0) phase = 'chunk';
        }
      }
    }
  };

  return durationMeterOf(
    (chunk) => {
      if (phase !== 'stopped') scan(chunk);
    },
    () => (dataBytes === undefined || byteRate === 0 ? undefined : dataBytes / byteRate),
  );
}

/** Encodings whose every sample is `bits` wide: PCM, IEEE float, A-law, µ-law, and the extensible header (its subformat names one). */
const SAMPLE_ENCODINGS = new Set([1, 3, 6, 7, 0xfffe]);

/**
 * The fewest bytes a second of this `fmt ` can hold: the stated byte rate, or the sample rate
 * times the frame its channels and sample size (or its block alignment) take, whichever is
 * lowest; 0 (not timed) for an encoding of compressed blocks.
 */
function lowestByteRate(fmt: Uint8Array): number {
  const u16 = (at: number) => fmt[at]! | (fmt[at + 1]! << 8);
  const encoding = u16(0);
  const channels = u16(2);
  const sampleRate = u32le(fmt, 4);
  const blockAlign = u16(12);
  const bits = u16(14);
  if (!SAMPLE_ENCODINGS.has(encoding) || channels === 0 || sampleRate === 0 || bits === 0) return 0;
  const rates = [u32le(fmt, 8), sampleRate * channels * Math.ceil(bits / 8), ...(blockAlign > 0 ? [sampleRate * blockAlign] : [])].filter((rate) => rate > 0);
  return Math.min(...rates);
}

const text = (bytes: Uint8Array, at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
const u32le = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | ((bytes[at + 3]! << 24) >>> 0)) >>> 0;
