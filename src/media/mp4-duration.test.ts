import { describe, expect, it } from 'vitest';
import { mp4DurationMeter } from './mp4-duration';

const box = (type: string, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setUint32(0, out.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(body, 8);
  return out;
};

/** A 64-bit-size box, as large media data is written. */
const largeBox = (type: string, body: Uint8Array): Uint8Array => {
  const out = new Uint8Array(16 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 1);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  view.setBigUint64(8, BigInt(out.length));
  out.set(body, 16);
  return out;
};

function mvhd(version: 0 | 1, timescale: number, duration: number): Uint8Array {
  const body = new Uint8Array(version === 1 ? 108 : 96);
  const view = new DataView(body.buffer);
  body[0] = version;
  if (version === 1) {
    view.setUint32(20, timescale);
    view.setBigUint64(24, BigInt(duration));
  } else {
    view.setUint32(12, timescale);
    view.setUint32(16, duration);
  }
  return box('mvhd', body);
}

const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

const ftyp = box('ftyp', new TextEncoder().encode('isom\0\0\x02\0isomiso2'));
const media = (bytes: number) => box('mdat', new Uint8Array(bytes).fill(7));

/** Streams `file` through a meter in pieces of `piece` bytes; answers the seconds read and whether every byte passed unchanged. */
async function measure(file: Uint8Array, piece: number) {
  const meter = mp4DurationMeter();
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < file.length; at += piece) controller.enqueue(file.slice(at, at + piece));
      controller.close();
    },
  });
  const passed = new Uint8Array(await new Response(source.pipeThrough(meter.stream)).arrayBuffer());
  return { seconds: meter.seconds(), intact: passed.length === file.length && passed.every((byte, i) => byte === file[i]) };
}

describe('mp4DurationMeter', () => {
  it.each([1, 7, 64, 100_000])('reads mvhd after the media data (a file not prepared for streaming), in %i-byte pieces', async (piece) => {
    const file = concat(ftyp, media(50_000), box('moov', concat(mvhd(0, 600, 4_200), box('trak', new Uint8Array(40)))));
    expect(await measure(file, piece)).toEqual({ seconds: 7, intact: true });
  });

  it('reads mvhd before the media data, and a version-1 header with 64-bit fields', async () => {
    const file = concat(ftyp, box('moov', mvhd(1, 90_000, 1_125_000)), largeBox('mdat', new Uint8Array(10_000)));
    expect(await measure(file, 333)).toEqual({ seconds: 12.5, intact: true });
  });

  it('passes over a 64-bit media box to the index after it', async () => {
    const file = concat(ftyp, largeBox('mdat', new Uint8Array(20_000)), box('moov', mvhd(0, 1000, 3_000)));
    expect(await measure(file, 4096)).toEqual({ seconds: 3, intact: true });
  });

  it.each([
    ['no moov', concat(ftyp, media(1000))],
    ['a moov without mvhd', concat(ftyp, box('moov', box('trak', new Uint8Array(16))))],
    ['a zero timescale', concat(ftyp, box('moov', mvhd(0, 0, 100)))],
    ['a cut-off file', concat(ftyp, box('moov', mvhd(0, 600, 600))).slice(0, 60)],
    ['bytes that are not an MP4', new Uint8Array(5000).fill(0xff)],
  ])('knows no length for %s, and still passes every byte', async (_, file) => {
    expect(await measure(file, 100)).toEqual({ seconds: undefined, intact: true });
  });
});
