/**
 * Reads a `multipart/form-data` body (RFC 7578) part by part as it streams in, so a 25 MB file
 * part is never held whole: a part's body is a stream the caller reads (or cancels) before asking
 * for the next part. Only the delimiter's length of bytes is kept back between chunks.
 */

export interface MultipartPart {
  name: string;
  filename?: string;
  contentType?: string;
  /** The part's bytes; read it to its end (or `skip` it) before the next `next()`. */
  body: ReadableStream<Uint8Array>;
}

/** A body that is not the multipart it says it is (a 400 for the caller). */
export class MalformedMultipart extends Error {}

const CRLF = new Uint8Array([0x0d, 0x0a]);
const HEADERS_MAX = 8 * 1024;

/** The boundary a `multipart/form-data` content type names, or null. */
export function multipartBoundary(contentType: string | null | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]!) : null;
}

export class MultipartReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #delimiter: Uint8Array;
  /** Bytes read but not yet handed on; the body is read as if it began with CRLF, so the first boundary is a delimiter too. */
  #buffer: Uint8Array = CRLF;
  #done = false;
  #started = false;
  #ended = false;
  #partOpen = false;

  constructor(body: ReadableStream<Uint8Array>, boundary: string) {
    this.#reader = body.getReader();
    this.#delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
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
    if (this.#buffer[0] === 0x2d && this.#buffer[1] === 0x2d) {
      this.#ended = true;
      await this.#reader.cancel().catch(() => {});
      return null;
    }
    const headers = await this.#headers();
    const disposition = headers.get('content-disposition') ?? '';
    const name = parameter(disposition, 'name');
    if (name === undefined) throw new MalformedMultipart('a part has no Content-Disposition name');
    this.#partOpen = true;
    const body = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const chunk = await this.#bodyChunk();
          if (chunk === null) {
            this.#partOpen = false;
            controller.close();
          } else controller.enqueue(chunk);
        } catch (err) {
          controller.error(err);
        }
      },
    }, { highWaterMark: 0 });
    return { name, filename: parameter(disposition, 'filename'), contentType: headers.get('content-type') ?? undefined, body };
  }

  /** Reads a part's body to its end, discarding it. */
  static async skip(part: MultipartPart): Promise<void> {
    for await (const _ of part.body);
  }

  /** A part's body as text, refused past `maxBytes`. */
  static async text(part: MultipartPart, maxBytes: number): Promise<string> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of part.body) {
      size += chunk.length;
      if (size > maxBytes) throw new MalformedMultipart(`the ${part.name} field is longer than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return new TextDecoder().decode(bytes);
  }

  async #pull(): Promise<boolean> {
    if (this.#done) return false;
    const { done, value } = await this.#reader.read();
    if (done) {
      this.#done = true;
      return false;
    }
    const joined = new Uint8Array(this.#buffer.length + value.length);
    joined.set(this.#buffer);
    joined.set(value, this.#buffer.length);
    this.#buffer = joined;
    return true;
  }

  async #fill(count: number): Promise<void> {
    while (this.#buffer.length < count) if (!(await this.#pull())) throw new MalformedMultipart('the body ended inside a part');
  }

  /** Headers up to the blank line that ends them. */
  async #headers(): Promise<Map<string, string>> {
    for (;;) {
      const end = indexOf(this.#buffer, HEADER_END, 2);
      if (end >= 0) {
        const text = new TextDecoder().decode(this.#buffer.subarray(2, end));
        this.#buffer = this.#buffer.subarray(end + HEADER_END.length);
        const headers = new Map<string, string>();
        for (const line of text.split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
        }
        return headers;
      }
      if (this.#buffer.length > HEADERS_MAX) throw new MalformedMultipart('a part has headers longer than 8 KB');
      if (!(await this.#pull())) throw new MalformedMultipart('the body ended inside a part');
    }
  }

  /** The next piece of the current part's body, or null at its closing delimiter (then consumed). */
  async #bodyChunk(): Promise<Uint8Array | null> {
    const delimiter = this.#delimiter;
    for (;;) {
      const at = indexOf(this.#buffer, delimiter, 0);
      if (at === 0) {
        this.#buffer = this.#buffer.subarray(delimiter.length);
        return null;
      }
      if (at > 0) {
        const piece = this.#buffer.subarray(0, at);
        this.#buffer = this.#buffer.subarray(at);
        return piece;
      }
      // Keep back what could be the start of a delimiter split across chunks.
      const safe = this.#buffer.length - (delimiter.length - 1);
      if (safe > 0) {
        const piece = this.#buffer.subarray(0, safe);
        this.#buffer = this.#buffer.subarray(safe);
        return piece;
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
