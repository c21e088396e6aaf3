import { ChunkReader } from './chunk-reader';

/**
 * Writes a `multipart/form-data` body (RFC 7578) around a file that streams: the text fields and
 * the file part's headers first, the file's bytes as they come, then the closing boundary. The
 * length is known up front (the file's size is), so the body goes out with a Content-Length
 * (`FixedLengthStream`) and is never held whole.
 */

/** Reads the file's bytes on their way out; `push` may throw to stop the body there. */
export interface FileInspector {
  push(chunk: Uint8Array): void;
  end(): void;
}

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: number;
  body: ReadableStream<Uint8Array>;
  inspect?: FileInspector;
}

export interface MultipartBody {
  contentType: string;
  length: number;
  body: ReadableStream<Uint8Array>;
}

const quoted = (value: string) => value.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ' '));

export function multipartBody(fields: [string, string][], file: MultipartFile): MultipartBody {
  const boundary = `----gateway${crypto.randomUUID().replaceAll('-', '')}`;
  const encoder = new TextEncoder();
  const head = encoder.encode(
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
  const length = head.length + file.bytes + tail.length;
  const sized = new FixedLengthStream(length);
  void (async () => {
    let writer = sized.writable.getWriter();
    let reader: ChunkReader | undefined;
    // A call that ends early (aborted, refused) errors both ends: that is the caller's outcome, not an unhandled rejection.
    writer.closed.catch(() => {});
    try {
      await writer.write(head);
      if (file.inspect) {
        // Each piece is read, written and its write awaited before the reader reuses its buffer.
        reader = new ChunkReader(file.body);
        for (let chunk = await reader.read(); chunk; chunk = await reader.read()) {
          file.inspect.push(chunk);
          await writer.write(chunk);
        }
        file.inspect.end();
      } else {
        writer.releaseLock();
        // A pipe, not a read loop: between two native streams (an R2 body into a FixedLengthStream) the
        // runtime moves the bytes itself, so no chunk is ever a JavaScript buffer left to the collector.
        await file.body.pipeTo(sized.writable, { preventClose: true });
        writer = sized.writable.getWriter();
        writer.closed.catch(() => {});
      }
      await writer.write(tail);
      await writer.close();
    } catch (err) {
      // The pipe releases the writable when it fails; only a writer of ours may still hold it.
      await (sized.writable.locked ? writer.abort(err) : sized.writable.abort(err)).catch(() => {});
      await (reader ? reader.cancel(err) : file.body.cancel(err)).catch(() => {});
    }
  })();
  return { contentType: `multipart/form-data; boundary=${boundary}`, length, body: sized.readable };
}
