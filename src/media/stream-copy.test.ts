import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { LengthMismatch, PART_BYTES, copyToR2, streamIntoR2 } from './stream-copy';

/** `total` bytes (a pattern that shows any reordering) in chunks of `chunk` bytes, as a network delivers them. */
function chunked(total: number, chunk: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(chunk, total - sent);
      const bytes = new Uint8Array(n);
      for (let i = 0; i < n; i++) bytes[i] = (sent + i) % 251;
      sent += n;
      controller.enqueue(bytes);
    },
  });
}

async function storedMatches(key: string, total: number): Promise<boolean> {
  const object = await env.MEDIA.get(key);
  if (!object) return false;
  const bytes = new Uint8Array(await object.arrayBuffer());
  return bytes.length === total && bytes.every((value, i) => value === i % 251);
}

const key = () => `test/stream-copy/${crypto.randomUUID()}`;

describe('streamIntoR2', () => {
  it('stores a body of two and a half parts in odd-sized chunks, of known length or not (multipart: parts of one size, as R2 requires)', async () => {
    const total = 2 * PART_BYTES + PART_BYTES / 2 + 3;
    for (const length of [undefined, total]) {
      const k = key();
      expect(await streamIntoR2(env.MEDIA, k, chunked(total, 1_000_003), { contentType: 'video/mp4', length })).toBe(total);
      expect(await storedMatches(k, total)).toBe(true);
      expect((await env.MEDIA.head(k))?.httpMetadata?.contentType).toBe('video/mp4');
    }
  });

  it('stores a body of exactly one part, and a small one', async () => {
    for (const total of [PART_BYTES, 70_000]) {
      const k = key();
      expect(await streamIntoR2(env.MEDIA, k, chunked(total, 65_536), { contentType: 'image/png', length: total })).toBe(total);
      expect(await storedMatches(k, total)).toBe(true);
    }
  });

  it('stores nothing when the body is shorter or longer than promised', async () => {
    for (const [total, promised] of [
      [1_000, 2_000],
      [3_000, 2_000],
      [PART_BYTES + 10, PART_BYTES + 20],
      [PART_BYTES * 2, PART_BYTES + 20],
    ] as const) {
      const k = key();
      await expect(streamIntoR2(env.MEDIA, k, chunked(total, 4_096), { contentType: 'image/png', length: promised })).rejects.toBeInstanceOf(LengthMismatch);
      expect(await env.MEDIA.head(k)).toBeNull();
    }
  });

  it('copies an upstream answer without a stated length', async () => {
    const total = PART_BYTES + 12_345;
    const k = key();
    expect(await copyToR2(env.MEDIA, k, new Response(chunked(total, 777_777)), 'video/mp4')).toBe(total);
    expect(await storedMatches(k, total)).toBe(true);
  });
});
