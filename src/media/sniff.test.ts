import { describe, expect, it } from 'vitest';
import { matchesDeclaredType, peekStream, SNIFF_BYTES } from './sniff';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((ch) => ch.charCodeAt(0)) : part)));

const html = bytes('<!doctype html><script>alert(1)</script>');
const svg = bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');

describe('matchesDeclaredType', () => {
  it.each([
    ['image/png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])],
    ['image/jpeg', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF')],
    ['image/gif', bytes('GIF89a', [1, 0, 1, 0])],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 ')],
    ['video/mp4', bytes([0, 0, 0, 24], 'ftypisom', [0, 0, 2, 0])],
    ['video/quicktime', bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 0])],
    ['audio/mp4', bytes([0, 0, 0, 32], 'ftypM4A ')],
    ['audio/mpeg', bytes('ID3', [4, 0, 0, 0, 0, 0, 0])],
    ['audio/mpeg', bytes([0xff, 0xfb, 0x90, 0x64])],
    ['audio/wav', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
  ])('takes a %s that starts as one', (type, head) => {
    expect(matchesDeclaredType(type, head)).toBe(true);
  });

  it.each([
    ['image/png', html],
    ['image/png', svg],
    ['image/jpeg', html],
    ['image/webp', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt ')],
    ['video/mp4', html],
    ['audio/mpeg', svg],
    ['audio/wav', bytes('RIFF')],
    ['image/png', new Uint8Array()],
    ['text/html', html],
  ])('refuses a %s whose bytes are something else', (type, head) => {
    expect(matchesDeclaredType(type, head)).toBe(false);
  });
});

function chunked(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({ pull: (controller) => (i < chunks.length ? controller.enqueue(chunks[i++]!) : controller.close()) });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of stream) out.push(...chunk);
  return out;
}

describe('peekStream', () => {
  it('reads the first bytes across chunks and replays every byte in order', async () => {
    const all = Array.from({ length: 40 }, (_, i) => i);
    const { head, stream } = await peekStream(chunked([new Uint8Array(all.slice(0, 5)), new Uint8Array(all.slice(5, 9)), new Uint8Array(all.slice(9))]), SNIFF_BYTES);
    expect([...head]).toEqual(all.slice(0, SNIFF_BYTES));
    expect(await readAll(stream)).toEqual(all);
  });

  it('answers a shorter head for a body shorter than asked, and an empty one for no bytes', async () => {
    const short = await peekStream(chunked([new Uint8Array([1, 2, 3])]), SNIFF_BYTES);
    expect([...short.head]).toEqual([1, 2, 3]);
    expect(await readAll(short.stream)).toEqual([1, 2, 3]);
    const empty = await peekStream(chunked([]), SNIFF_BYTES);
    expect(empty.head.length).toBe(0);
    expect(await readAll(empty.stream)).toEqual([]);
  });
});
