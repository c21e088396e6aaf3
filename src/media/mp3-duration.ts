import { durationMeterOf, type DurationMeter } from './duration-meter';

/**
 * Reads an MP3's length from its own frame headers while the file streams past (ISO/IEC 11172-3
 * and 13818-3): an ID3v2 tag is skipped by its size, then every frame is counted, each skipped by
 * the length its header gives. A first frame holding a Xing/Info or VBRI header (VBR encoders
 * write one) is silence and not counted; the frame count it states is never believed, since a
 * decoder plays every frame that follows, however many it says. Bytes that are no frame (junk, an
 * ID3v1 tag at the end) are passed over one by one until the next header of the same stream, as a
 * decoder resynchronizes. Nothing but a few dozen bytes is ever held.
 */

const KBPS: Record<string, readonly number[]> = {
  '1-1': [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
/** Sample rates by version bits (00 MPEG-2.5, 10 MPEG-2, 11 MPEG-1). */
const RATES: Record<number, readonly number[]> = { 0: [11025, 12000, 8000], 2: [22050, 24000, 16000], 3: [44100, 48000, 32000] };

/** Bytes of the first frame read for a Xing/Info or VBRI header (VBRI's frame count ends at 54). */
const FIRST_FRAME_BYTES = 58;

export interface Mp3Frame {
  /** Version bits: 0 MPEG-2.5, 2 MPEG-2, 3 MPEG-1. */
  version: number;
  layer: 1 | 2 | 3;
  sampleRate: number;
  samples: number;
  length: number;
  mono: boolean;
}

/** The frame whose header starts at `at`, or null when those 4 bytes are no valid header. */
export function mp3Frame(bytes: Uint8Array, at = 0): Mp3Frame | null {
  const [b0, b1, b2, b3] = [bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!];
  if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) return null;
  const version = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrate = KBPS[`${version === 3 ? 1 : 2}-${layer}`]![bitrateIndex]! * 1000;
  const sampleRate = RATES[version]![rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const samples = layer === 1 ? 384 : layer === 3 && version !== 3 ? 576 : 1152;
  const length = layer === 1 ? (Math.floor((12 * bitrate) / sampleRate) + padding) * 4 : Math.floor((samples / 8) * bitrate / sampleRate) + padding;
  return { version, layer, sampleRate, samples, length, mono: b3 >> 6 === 3 };
}

const ascii = (bytes: Uint8Array, from: number) => String.fromCharCode(bytes[from]!, bytes[from + 1]!, bytes[from + 2]!, bytes[from + 3]!);

/** Whether a first frame holds a Xing/Info or VBRI header (a frame of silence before the audio). */
function isVbrHeader(frame: Mp3Frame, bytes: Uint8Array, filled: number): boolean {
  const xing = 4 + (frame.version === 3 ? (frame.mono ? 17 : 32) : frame.mono ? 9 : 17);
  return (xing + 4 <= filled && ['Xing', 'Info'].includes(ascii(bytes, xing))) || (36 + 4 <= filled && ascii(bytes, 36) === 'VBRI');
}

export function mp3DurationMeter(): DurationMeter {
  const head = new Uint8Array(FIRST_FRAME_BYTES);
  let filled = 0;
  let skip = 0;
  let tagChecked = false;
  let first: Mp3Frame | undefined;
  let samples = 0;

  /** Reads what `head` holds: a tag, a frame, or a byte that is neither. */
  const drain = (ended: boolean) => {
    while (filled > 0) {
      if (!tagChecked) {
        if (filled < 10 && !ended) return;
        tagChecked = true;
        if (filled >= 10 && head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33) {
          const size = ((head[6]! & 0x7f) << 21) | ((head[7]! & 0x7f) << 14) | ((head[8]! & 0x7f) << 7) | (head[9]! & 0x7f);
          const total = 10 + size + ((head[5]! & 0x10) !== 0 ? 10 : 0);
          if (filled <= total) {
            skip = total - filled;
            filled = 0;
          } else {
            head.copyWithin(0, total, filled);
            filled -= total;
          }
          continue;
        }
      }
      if (filled < 4) return;
      const frame = mp3Frame(head);
      const sameStream = frame && (!first || (frame.version === first.version && frame.layer === first.layer && frame.sampleRate === first.sampleRate));
      if (!frame || !sameStream) {
        head.copyWithin(0, 1, filled);
        filled--;
        continue;
      }
      let silent = false;
      if (!first) {
        const want = Math.min(frame.length, FIRST_FRAME_BYTES);
        if (filled < want && !ended) return;
        first = frame;
        silent = isVbrHeader(frame, head, filled);
      }
      if (!silent) samples += frame.samples;
      const rest = frame.length - filled;
      if (rest >= 0) {
        skip = rest;
        filled = 0;
      } else {
        head.copyWithin(0, frame.length, filled);
        filled -= frame.length;
      }
    }
  };

  const scan = (chunk: Uint8Array) => {
    for (let offset = 0; offset < chunk.length; ) {
      if (skip > 0) {
        const take = Math.min(skip, chunk.length - offset);
        skip -= take;
        offset += take;
        continue;
      }
      const take = Math.min(head.length - filled, chunk.length - offset);
      head.set(chunk.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      drain(false);
    }
  };

  return durationMeterOf(
    (chunk) => scan(chunk),
    () => (first ? samples / first.sampleRate : undefined),
    () => {
      if (skip === 0) drain(true);
    },
  );
}
