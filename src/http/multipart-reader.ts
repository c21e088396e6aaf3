import { ChunkReader, CHUNK_BYTES } from './chunk-reader';

/**
 * Reads a `multipart/form-data` body (RFC 7578) part by part as it streams in, so a 25 MB file
 * part is never held whole: a part's bytes come as views of one buffer the reader reuses (filled
 * by `ChunkReader`), so the file leaves no garbage behind either. Only the delimiter's length of
 * bytes is kept back between reads.
 */

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  /** Where the part's bytes begin in the raw body. */
  offset: number;
  /**
   * The part's next bytes, or null at its end; read to the end (or `skip` it) before the next
   * `next()`. A view of the reader's buffer: valid until the next read, so copy what you keep.
   */
  read(): Promise<Uint8Array | null>;
}

/** A body that is not the multipart it says it is (a 400 for the caller). */
export class MalformedMultipart extends Error {}

const HEADERS_MAX = 8 * 1024;
/** Unread bytes: a read's worth, and headers of up to HEADERS_MAX waiting for their blank line. */
const STORE_BYTES = CHUNK_BYTES + HEADERS_MAX + 1024;

/** The boundary a `multipart/form-data` content type names, or null. */
export function multipartBoundary(contentType: string | null | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

export class MultipartReader {
  readonly #reader: ChunkReader;
  readonly #delimiter: Uint8Array;
  /** Bytes read but not yet handed on are `#store[#start, #end)`; the body is read as if it began with CRLF, so the first boundary is a delimiter too. */
  readonly #store = new Uint8Array(STORE_BYTES);
  #start = 0;
  #end = 2;
  /** The raw body's offset of `#store[#start]` (the CRLF read first is at -2). */
  #offset = -2;
  readonly #tap: ((chunk: Uint8Array) => Promise<void>) | undefined;
  #done = false;
  #started = false;
  #ended = false;
  #partOpen = false;

  /**
   * `tap` is given every raw byte as it is read, the body's tail after the closing delimiter too
   * (so a copy of the whole body can be written as it streams); its promise is awaited before
   * the next read.
   */
  constructor(body: ReadableStream<Uint8Array>, boundary: string, tap?: (chunk: Uint8Array) => Promise<void>) {
    this.#reader = new ChunkReader(body);
    this.#tap = tap;
    this.#store.set([0x0d, 0x0a]);
    this.#delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  }

  get #buffer(): Uint8Array {
    return this.#store.subarray(this.#start, this.#end);
  }

  /** The next part, or null after the closing delimiter. */
  async next(): Promise<MultipartPart | null> {
    if (this.#partOpen) throw new Error('the previous part was not read to its end');
    if (this.#ended) return null;
    if (!this.#started) {
      this.#started = true;
      while ((await this.#bodyChunk()) !== null); // the preamble
    }
    // After a delimiter: `--` closes the body, CRLF opens a part's headers.
    await this.#fill(2);
    if (this.#store[this.#start] === 0x2d && this.#store[this.#start + 1] === 0x2d) {
      this.#ended = true;
      if (!this.#tap) {
        await this.#reader.cancel().catch(() => {});
        return null;
      }
      // The epilogue goes to the tap too (and is dropped here).
      do this.#advance(this.#end - this.#start);
      while (await this.#pull());
      return null;
    }
    const headers = await this.#headers();
    const disposition = headers.get('content-disposition') ?? '';
    const name = parameter(disposition, 'name');
    if (name === undefined) throw new MalformedMultipart('a part has no Content-Disposition name');
    this.#partOpen = true;
    const read = async () => {
      if (!this.#partOpen) return null;
      const chunk = await this.#bodyChunk();
      if (chunk === null) this.#partOpen = false;
      return chunk;
    };
    return { name, filename: parameter(disposition, 'filename'), contentType: headers.get('content-type') ?? undefined, offset: this.#offset, read };
  }

  /** Reads a part's body to its end, discarding it. */
  static async skip(part: MultipartPart): Promise<void> {
    while ((await part.read()) !== null);
  }

  /** A part's body as text, refused past `maxBytes`. */
  static async text(part: MultipartPart, maxBytes: number): Promise<string> {
    const bytes = new Uint8Array(maxBytes);
    let size = 0;
    for (let chunk = await part.read(); chunk; chunk = await part.read()) {
      if (size + chunk.length > maxBytes) throw new MalformedMultipart(`the ${part.name} field is longer than ${maxBytes} bytes`);
      bytes.set(chunk, size);
      size += chunk.length;
    }
    return new TextDecoder().decode(bytes.subarray(0, size));
  }

  /** Reads more into the store (after moving what is unread to its start); false at the body's end. */
  async #pull(): Promise<boolean> {
    if (this.#done) return false;
    if (this.#start > 0) {
      this.#store.copyWithin(0, this.#start, this.#end);
      this.#end -= this.#start;
      this.#start = 0;
    }
    const chunk = await this.#reader.read(STORE_BYTES - this.#end);
    if (chunk === null) {
      this.#done = true;
      return false;
    }
    // The tap is done with the chunk (a view of the reader's buffer) before the next read.
    if (this.#tap) await this.#tap(chunk);
    this.#store.set(chunk, this.#end);
    this.#end += chunk.length;
    return true;
  }

  #advance(count: number): void {
    this.#start += count;
    this.#offset += count;
  }

  async #fill(count: number): Promise<void> {
    while (this.#end - this.#start < count) if (!(await this.#pull())) throw new MalformedMultipart('the body ended inside a part');
  }

  /** Headers up to the blank line that ends them. */
  async #headers(): Promise<Map<string, string>> {
    for (;;) {
      const buffer = this.#buffer;
      const end = indexOf(buffer, HEADER_END, 2);
      if (end >= 0) {
        const text = new TextDecoder().decode(buffer.subarray(2, end));
        this.#advance(end + HEADER_END.length);
        const headers = new Map<string, string>();
        for (const line of text.split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        return headers;
      }
      if (buffer.length > HEADERS_MAX) throw new MalformedMultipart('a part has headers longer than 8 KB');
      if (!(await this.#pull())) throw new MalformedMultipart('the body ended inside a part');
    }
  }

  /** The next piece of the current part's body (a view of the store), or null at its closing delimiter (then consumed). */
  async #bodyChunk(): Promise<Uint8Array | null> {
    const delimiter = this.#delimiter;
    for (;;) {
      const buffer = this.#buffer;
      const at = indexOf(buffer, delimiter, 0);
      if (at === 0) {
        this.#advance(delimiter.length);
        return null;
      }
      // Up to a delimiter, or all but what could be the start of one split across reads.
      const take = at > 0 ? at : buffer.length - (delimiter.length - 1);
      if (take > 0) {
        this.#advance(take);
        return buffer.subarray(0, take);
      }
      if (!(await this.#pull())) throw new MalformedMultipart('the body ended before its closing boundary');
    }
  }
}

const HEADER_END = new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]);

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  for (let i = haystack.indexOf(first, from); i >= 0 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

/** A parameter of a Content-Disposition value (`name="file"`), quoted or not. */
function parameter(disposition: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${key}=([^;\\s]*)`, 'i').exec(disposition);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}
