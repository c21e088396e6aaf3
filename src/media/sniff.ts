import { isUploadType, type UploadType } from './uploads';

/** Bytes a type's signature needs: a RIFF header names its form at 8 to 12. */
export const SNIFF_BYTES = 12;

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, i) => bytes[i] === byte);
const riff = (bytes: Uint8Array, form: string) => ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === form;
/** ISO base media (MP4, MOV, M4A): a box size, then a box type; QuickTime files may open with other atoms. */
const isoBox = (bytes: Uint8Array, types: string[]) => types.includes(ascii(bytes, 4, 8));
const ISO_TYPES = ['ftyp'];
const QUICKTIME_TYPES = ['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot'];

const SIGNATURES: Record<UploadType, (bytes: Uint8Array) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a',
  'image/webp': (b) => riff(b, 'WEBP'),
  'video/mp4': (b) => isoBox(b, ISO_TYPES),
  'video/quicktime': (b) => isoBox(b, QUICKTIME_TYPES),
  'audio/mp4': (b) => isoBox(b, ISO_TYPES),
  // An ID3 tag, or an MPEG audio frame's sync word (11 set bits).
  'audio/mpeg': (b) => ascii(b, 0, 3) === 'ID3' || (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0),
  'audio/wav': (b) => riff(b, 'WAVE'),
};

/**
 * Whether a file's first bytes (at least `SNIFF_BYTES` of them, or the whole file) carry the
 * signature of its declared type. An upload is served from our origin, so bytes that are really
 * HTML or script must never be stored under an image's name (docs/agents/uploads.md).
 */
export function matchesDeclaredType(type: string, head: Uint8Array): boolean {
  return isUploadType(type) && SIGNATURES[type](head);
}

/**
 * Reads the first `count` bytes of a stream (fewer when it ends sooner) without consuming it:
 * the returned stream yields every byte again, prefix first, pulling the rest as it is read, so
 * nothing more than the first chunk is held.
 */
export async function peekStream(body: ReadableStream<Uint8Array>, count: number): Promise<{ head: Uint8Array; stream: ReadableStream<Uint8Array> }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let read = 0;
  while (read < count) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    read += value.length;
  }
  const head = new Uint8Array(read);
  let offset = 0;
  for (const chunk of chunks) {
    head.set(chunk, offset);
    offset += chunk.length;
  }
  let replayed = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!replayed) {
        replayed = true;
        if (head.length > 0) return controller.enqueue(head);
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { head: head.subarray(0, count), stream };
}
