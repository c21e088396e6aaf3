/**
 * Writes a `multipart/form-data` body (RFC 7578) around a file that streams: the text fields and
 * the file part's headers first, the file's bytes as they come, then the closing boundary. The
 * length is known up front (the file's size is), so the body goes out with a Content-Length
 * (`FixedLengthStream`) and is never held whole.
 */

export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  bytes: number;
  body: ReadableStream<Uint8Array>;
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
    const writer = sized.writable.getWriter();
    const reader = file.body.getReader();
    // A call that ends early (aborted, refused) errors both ends: that is the caller's outcome, not an unhandled rejection.
    writer.closed.catch(() => {});
    reader.closed.catch(() => {});
    try {
      await writer.write(head);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        await writer.write(value);
      }
      await writer.write(tail);
      await writer.close();
    } catch (err) {
      await writer.abort(err).catch(() => {});
      await reader.cancel(err).catch(() => {});
    }
  })();
  return { contentType: `multipart/form-data; boundary=${boundary}`, length, body: sized.readable };
}
