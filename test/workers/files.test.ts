import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { call } from './helpers';

/** `GET /files/<key>` serves hosted media as players expect: length, ETag, ranges, revalidation. */

const bytes = new Uint8Array(Array.from({ length: 100 }, (_, i) => i));

async function hosted(): Promise<string> {
  const key = `outputs/${crypto.randomUUID()}/${crypto.randomUUID()}.mp4`;
  await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: 'video/mp4' } });
  return `/files/${key}`;
}

const body = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe('GET /files/<key>', () => {
  it('serves the whole object with its type, length, ETag and Accept-Ranges', async () => {
    const res = await call(await hosted());
    expect(res.status).toBe(200);
    expect(Object.fromEntries(['content-type', 'content-length', 'accept-ranges'].map((name) => [name, res.headers.get(name)]))).toEqual({
      'content-type': 'video/mp4',
      'content-length': '100',
      'accept-ranges': 'bytes',
    });
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
    expect(await body(res)).toEqual(bytes);
  });

  it.each([
    ['bytes=0-9', 'bytes 0-9/100', 0, 10],
    ['bytes=90-', 'bytes 90-99/100', 90, 100],
    ['bytes=-5', 'bytes 95-99/100', 95, 100],
    ['bytes=50-500', 'bytes 50-99/100', 50, 100],
  ])('answers %s with 206 and %s', async (range, contentRange, from, to) => {
    const res = await call(await hosted(), { headers: { Range: range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(contentRange);
    expect(res.headers.get('content-length')).toBe(String(to - from));
    expect(await body(res)).toEqual(bytes.slice(from, to));
  });

  it('answers a range past the end with 416 and the size, and ignores a range it cannot read', async () => {
    const path = await hosted();
    const past = await call(path, { headers: { Range: 'bytes=100-200' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */100');
    const odd = await call(path, { headers: { Range: 'items=1-2' } });
    expect(odd.status).toBe(200);
    expect(await body(odd)).toEqual(bytes);
  });

  it('answers 304 to If-None-Match with the current ETag', async () => {
    const path = await hosted();
    const etag = (await call(path)).headers.get('etag')!;
    const res = await call(path, { headers: { 'If-None-Match': etag } });
    expect(res.status).toBe(304);
  });

  it('answers with its own headers only: none of the metadata stored with the object is replayed', async () => {
    const key = `outputs/${crypto.randomUUID()}/${crypto.randomUUID()}.mp4`;
    await env.MEDIA.put(key, bytes, {
      httpMetadata: { contentType: 'video/mp4', contentEncoding: 'gzip', contentLanguage: 'xx', cacheControl: 'public, max-age=31536000', cacheExpiry: new Date(Date.now() + 3_600_000) },
    });
    const res = await call(`/files/${key}`);
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((name) => !['content-type', 'content-length', 'etag', 'cache-control', 'accept-ranges', 'x-content-type-options', 'content-security-policy', 'x-service-request-id'].includes(name))).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(await body(res)).toEqual(bytes);
  });

  it('answers 404 for an unknown key and for a key outside the hosted kinds', async () => {
    expect((await call(`/files/outputs/${crypto.randomUUID()}/nope.png`)).status).toBe(404);
    expect((await call(`/files/outputs/${crypto.randomUUID()}/nope.png`, { headers: { Range: 'bytes=0-1' } })).status).toBe(404);
    expect((await call('/files/secrets/x')).status).toBe(404);
  });

  it('serves the object whole when a conditional header cannot be parsed (the binding threw: a 500)', async () => {
    const path = await hosted();
    for (const headers of [{ 'If-None-Match': 'abc' }, { 'If-Match': '"x' }] as Record<string, string>[]) {
      const res = await call(path, { headers });
      expect(res.status, JSON.stringify(headers)).toBe(200);
      expect(await body(res)).toEqual(bytes);
    }
    expect((await call(`/files/outputs/${crypto.randomUUID()}/nope.png`, { headers: { 'If-None-Match': 'abc' } })).status).toBe(404);
  });

  it('answers 404 for a key longer than R2 allows (the binding threw: a 500)', async () => {
    expect((await call(`/files/uploads/${'a'.repeat(1100)}`)).status).toBe(404);
  });
});


describe('hosted files are inert on our origin', () => {
  async function hostedAs(contentType: string, extension: string, kind = 'outputs'): Promise<string> {
    const key = `${kind}/${crypto.randomUUID()}/${crypto.randomUUID()}.${extension}`;
    await env.MEDIA.put(key, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>', { httpMetadata: { contentType } });
    return `/files/${key}`;
  }

  it('serves an SVG a provider produced as a download, never sniffed, in a sandbox with no loads', async () => {
    const res = await call(await hostedAs('image/svg+xml', 'svg'));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('content-disposition')).toBe('attachment');
  });

  it.each([
    ['text/html', 'html', 'outputs'],
    ['application/json', 'json', 'results'],
    ['application/octet-stream', 'bin', 'outputs'],
  ])('serves %s as a download', async (type, extension, kind) => {
    const res = await call(await hostedAs(type, extension, kind));
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('shows the image, audio and video types it accepts in place, still sandboxed, and on ranges too', async () => {
    const path = await hosted();
    for (const res of [await call(path), await call(path, { headers: { Range: 'bytes=0-9' } })]) {
      expect(res.headers.get('content-disposition')).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
  });
});
