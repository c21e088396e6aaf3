import { describe, expect, it } from 'vitest';
import { MalformedMultipart, multipartBoundary, MultipartReader } from './multipart-reader';
import { multipartBody } from './multipart-writer';

/** A stream of `bytes` in pieces of `piece` bytes. */
function pieces(bytes: Uint8Array, piece: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + piece));
      at += piece;
    },
  });
}

async function readAll(body: ReadableStream<Uint8Array>, boundary: string) {
  const reader = new MultipartReader(body, boundary);
  const parts: { name: string; filename?: string; contentType?: string; bytes: number[] }[] = [];
  for (let part = await reader.next(); part; part = await reader.next()) {
    const bytes: number[] = [];
    for (let chunk = await part.read(); chunk; chunk = await part.read()) bytes.push(...chunk);
    parts.push({ name: part.name, filename: part.filename, contentType: part.contentType, bytes });
  }
  return parts;
}

// Bytes that look like the start of a delimiter inside the file.
const FILE = new Uint8Array([1, 2, 0x0d, 0x0a, 0x2d, 0x2d, 3, 0x0d, 0x0a, 0x0d, 0x0a, 255, 0, 9]);

describe('MultipartReader', () => {
  it.each([1, 3, 64, 100_000])('reads the parts a FormData body holds, fed %i bytes at a time', async (piece) => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new File([FILE], 'a b "c".mp3', { type: 'audio/mpeg' }));
    form.append('language', 'en');
    const request = new Request('https://x.test/', { method: 'POST', body: form });
    const boundary = multipartBoundary(request.headers.get('content-type'))!;
    const bytes = new Uint8Array(await request.arrayBuffer());
    const parts = await readAll(pieces(bytes, piece), boundary);
    expect(parts.map((p) => p.name)).toEqual(['model', 'file', 'language']);
    expect(new TextDecoder().decode(new Uint8Array(parts[0]!.bytes))).toBe('whisper-1');
    expect(parts[1]).toMatchObject({ contentType: 'audio/mpeg', bytes: [...FILE] });
    expect(parts[1]!.filename).toContain('a b');
    expect(new TextDecoder().decode(new Uint8Array(parts[2]!.bytes))).toBe('en');
  });

  it('reads back what multipartBody writes, whose length it states', async () => {
    const written = multipartBody([['model', 'scribe_v1']], { field: 'file', filename: 'x.wav', contentType: 'audio/wav', bytes: FILE.length, body: pieces(FILE, 5) });
    const bytes = new Uint8Array(await new Response(written.body).arrayBuffer());
    expect(bytes.length).toBe(written.length);
    const parts = await readAll(pieces(bytes, 2), multipartBoundary(written.contentType)!);
    expect(parts).toEqual([
      { name: 'model', filename: undefined, contentType: undefined, bytes: [...new TextEncoder().encode('scribe_v1')] },
      { name: 'file', filename: 'x.wav', contentType: 'audio/wav', bytes: [...FILE] },
    ]);
  });

  it('hands out the parts of a byte stream (a request body) as views of one buffer it reuses, each part with its offset in the body', async () => {
    const file = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const form = new FormData();
    form.append('file', new File([file], 'big.mp3', { type: 'audio/mpeg' }));
    form.append('model', 'whisper-1');
    const request = new Request('https://x.test/', { method: 'POST', body: form });
    const raw = new Uint8Array(await request.clone().arrayBuffer());
    const reader = new MultipartReader(request.body!, multipartBoundary(request.headers.get('content-type'))!);
    const buffers = new Set<ArrayBufferLike>();
    const got: { name: string; offset: number; bytes: number[] }[] = [];
    for (let part = await reader.next(); part; part = await reader.next()) {
      const bytes: number[] = [];
      for (let chunk = await part.read(); chunk; chunk = await part.read()) {
        buffers.add(chunk.buffer);
        for (const byte of chunk) bytes.push(byte);
      }
      got.push({ name: part.name, offset: part.offset, bytes });
    }
    expect(got.map((p) => p.name)).toEqual(['file', 'model']);
    expect(got[0]!.bytes).toEqual([...file]);
    // A 300 KB file in pieces of at most 64 KiB, every one a view of the same buffer: nothing allocated a chunk.
    expect(buffers.size).toBe(1);
    for (const part of got) expect([...raw.subarray(part.offset, part.offset + part.bytes.length)]).toEqual(part.bytes);
  });

  it('gives its tap every raw byte in order, the preamble and the epilogue after the closing delimiter too', async () => {
    const raw = new TextEncoder().encode('preamble\r\n--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--b--\r\nepilogue');
    const tapped: number[] = [];
    const reader = new MultipartReader(pieces(raw, 3), 'b', async (chunk) => {
      tapped.push(...chunk);
    });
    const part = (await reader.next())!;
    expect(await MultipartReader.text(part, 100)).toBe('whisper-1');
    expect(await reader.next()).toBeNull();
    expect(tapped).toEqual([...raw]);
  });

  it('refuses a body that ends before its closing boundary', async () => {
    const body = new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper');
    await expect(readAll(pieces(body, 4), 'b')).rejects.toBeInstanceOf(MalformedMultipart);
  });

  it('finds the boundary of a multipart content type only', () => {
    expect(multipartBoundary('multipart/form-data; boundary="abc def"')).toBe('abc def');
    expect(multipartBoundary('multipart/form-data; boundary=xyz')).toBe('xyz');
    expect(multipartBoundary('application/json')).toBeNull();
  });
});
