import { GatewayError } from '../../errors';
import type { MultipartPart } from '../../http/multipart-reader';
import { AUDIO_SNIFF_BYTES, durationMeter, sniffAudio, type AudioFormat, type DurationMeter } from '../../media/audio-duration';
import type { R2Spool } from '../../media/r2-spool';

/** The most audio a request streams (the catalog's largest `maxBytes`). */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** A multipart body may hold this much around its file: the text fields and the parts' headers. */
const MAX_ENVELOPE_BYTES = 256 * 1024;

const tooLarge = () => new GatewayError('invalid_request', `The audio file is larger than ${MAX_AUDIO_BYTES} bytes (25 MB).`, { param: 'file' });

/** The format a file's first bytes name, or a 400 naming `param` for one that is not measured audio. */
export function formatOf(head: Uint8Array, param: string): AudioFormat {
  if (head.length === 0) throw new GatewayError('invalid_request', 'The audio file is empty.', { param });
  const format = sniffAudio(head);
  if (format === 'unmeasured') throw new GatewayError('invalid_request', 'Ogg, WebM and FLAC audio is not measured here: send MP3, WAV or M4A.', { param });
  if (format === 'unknown') throw new GatewayError('invalid_request', 'The file is not audio the gateway takes (MP3, WAV or M4A).', { param });
  return format;
}

/** A copy of a request's whole body being written into R2 as the multipart reader reads it. */
export interface BodyCopy {
  /** The multipart reader's tap: every raw byte, in order. */
  write(chunk: Uint8Array): Promise<void>;
  /** After the body's last byte: waits until the object is stored. */
  finish(): Promise<void>;
  abort(): Promise<void>;
}

/**
 * A body of known length (Content-Length) is copied whole into R2, one `put` through a
 * `FixedLengthStream`, and its file is read back by range: locally, Miniflare's R2 takes about
 * 50 MB more for a 25 MiB multipart upload than for one streamed `put` (bench/results.md, Media).
 * A body longer than any file the route takes is refused before a byte is read. Undefined for a
 * body of unknown length (chunked), which `R2Spool` writes part by part instead.
 */
export function bodyCopy(bucket: R2Bucket, key: string, contentLength: string | undefined): BodyCopy | undefined {
  const length = Number(contentLength);
  if (!contentLength || !Number.isSafeInteger(length) || length <= 0) return undefined;
  if (length > MAX_AUDIO_BYTES + MAX_ENVELOPE_BYTES) throw tooLarge();
  const sized = new FixedLengthStream(length);
  const stored = bucket.put(key, sized.readable, { httpMetadata: { contentType: 'application/octet-stream' } });
  // Awaited by `finish`; a failed request aborts it, and that rejection is expected.
  stored.catch(() => {});
  const writer = sized.writable.getWriter();
  writer.closed.catch(() => {});
  return {
    write: (chunk) => writer.write(chunk),
    async finish() {
      await writer.close();
      await stored;
    },
    async abort() {
      await writer.abort().catch(() => {});
      await stored.catch(() => {});
    },
  };
}

/** A file part as the gateway read it. */
export interface MeasuredFile {
  format: AudioFormat;
  bytes: number;
  seconds: number;
  /** Where it begins in the raw body (in a `BodyCopy`'s object). */
  offset: number;
}

/**
 * Reads the file part through its duration reader; a 400 naming `file` for one too large, empty
 * or not audio. Each piece is a view of the reader's buffer, read (and copied into `spool`, when
 * the body is not copied whole) before the next is read: nothing is allocated per chunk.
 */
export async function measureFile(part: MultipartPart, spool: R2Spool | undefined): Promise<MeasuredFile> {
  // The first bytes name the format; until they are all here, they are the only bytes there are.
  const head = new Uint8Array(AUDIO_SNIFF_BYTES);
  let sniffed = 0;
  let bytes = 0;
  let audio: { format: AudioFormat; meter: DurationMeter } | undefined;
  for (;;) {
    const piece = await part.read();
    if (!audio) {
      const before = sniffed;
      if (piece) {
        const take = Math.min(piece.length, head.length - sniffed);
        head.set(piece.subarray(0, take), sniffed);
        sniffed += take;
      }
      if (piece && sniffed < head.length) {
        bytes += piece.length;
        await spool?.write(piece);
        continue;
      }
      const format = formatOf(head.subarray(0, sniffed), 'file');
      audio = { format, meter: durationMeter(format) };
      audio.meter.push(head.subarray(0, before));
    }
    if (!piece) break;
    bytes += piece.length;
    if (bytes > MAX_AUDIO_BYTES) throw tooLarge();
    audio.meter.push(piece);
    await spool?.write(piece);
  }
  audio.meter.end();
  return { format: audio.format, bytes, seconds: audio.meter.seconds() ?? 0, offset: part.offset };
}
