import { describe, expect, it } from 'vitest';
import { readBodyCapped } from './body';

const streamOf = (chunks: Uint8Array[], fail?: Error) =>
  new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else if (fail) controller.error(fail);
      else controller.close();
    },
  });

describe('readBodyCapped', () => {
  it('reads a body up to the cap, whole and in order', async () => {
    const read = await readBodyCapped(new Response(streamOf([new Uint8Array([1, 2]), new Uint8Array([3])])), 3, '3 bytes');
    expect(read).toEqual({ ok: true, bytes: new Uint8Array([1, 2, 3]) });
  });

  it('refuses a declared length above the cap before reading, and a body that runs past it', async () => {
    const declared = new Response(new Uint8Array(10), { headers: { 'Content-Length': '10' } });
    expect(await readBodyCapped(declared, 4, '4 bytes')).toEqual({ ok: false, cause: 'too_large', reason: 'exceeds 4 bytes' });
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({ pull: (controller) => void (pulled++, controller.enqueue(new Uint8Array(1024))) });
    expect(await readBodyCapped(new Response(endless), 4096, '4 KB')).toEqual({ ok: false, cause: 'too_large', reason: 'exceeds 4 KB' });
    expect(pulled).toBeLessThan(10);
  });

  it('counts the bytes whatever the declared length: a body longer than it said is cut at the cap', async () => {
    const chunks = Array.from({ length: 8 }, () => new Uint8Array(1024));
    const lying = new Response(streamOf(chunks), { headers: { 'Content-Length': '100' } });
    expect(await readBodyCapped(lying, 4096, '4 KB')).toEqual({ ok: false, cause: 'too_large', reason: 'exceeds 4 KB' });
  });

  it('answers a body that breaks off as a failed read, not an exception', async () => {
    const read = await readBodyCapped(new Response(streamOf([new Uint8Array([1])], new TypeError('Network connection lost.'))), 100, '100 bytes');
    expect(read).toEqual({ ok: false, cause: 'unreadable', reason: 'could not be read (Network connection lost.)' });
  });
});
