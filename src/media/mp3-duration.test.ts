import { describe, expect, it } from 'vitest';
import { MP3_FRAME_SECONDS, mp3File, throughPieces } from '../../test/fixtures/audio';
import { mp3DurationMeter } from './mp3-duration';

async function measure(bytes: Uint8Array, piece: number) {
  const meter = mp3DurationMeter();
  const out = await throughPieces(meter.stream, bytes, piece);
  expect(out).toEqual(bytes);
  return meter.seconds();
}

describe('mp3DurationMeter', () => {
  it.each([1, 7, 4096])('counts every CBR frame, fed %i bytes at a time', async (piece) => {
    expect(await measure(mp3File(50), piece)).toBeCloseTo(50 * MP3_FRAME_SECONDS, 9);
  });

  it.each([1, 100])('skips an ID3v2 tag, junk between frames and an ID3v1 tag (pieces of %i)', async (piece) => {
    expect(await measure(mp3File(40, { id3: true, junk: true, id3v1: true }), piece)).toBeCloseTo(40 * MP3_FRAME_SECONDS, 9);
  });

  it('sums VBR frames of different lengths', async () => {
    expect(await measure(mp3File(41, { vbr: true }), 1)).toBeCloseTo(41 * MP3_FRAME_SECONDS, 9);
  });

  it('counts the frames after a Xing header (itself silence), whatever count it states', async () => {
    const file = mp3File(30, { xing: true, vbr: true, id3: true });
    expect(await measure(file, 1)).toBeCloseTo(30 * MP3_FRAME_SECONDS, 9);
    // The stated count is the file's own word, and a decoder plays every frame: a Xing header
    // claiming 10 frames before 15 is charged for 15.
    const meter = mp3DurationMeter();
    await throughPieces(meter.stream, new Uint8Array([...mp3File(10, { xing: true }), ...mp3File(5)]), 64);
    expect(meter.seconds()).toBeCloseTo(15 * MP3_FRAME_SECONDS, 9);
  });

  it('tells no length for bytes that hold no frame', async () => {
    expect(await measure(new TextEncoder().encode('<html>not audio at all</html>'), 3)).toBeUndefined();
    expect(await measure(new Uint8Array(0), 1)).toBeUndefined();
  });

  it('reports the length counted so far while the file streams', async () => {
    const meter = mp3DurationMeter();
    const writer = meter.stream.writable.getWriter();
    const reading = (async () => {
      for await (const _ of meter.stream.readable);
    })();
    const file = mp3File(20);
    await writer.write(file.slice(0, 144 * 10));
    expect(meter.seconds()).toBeGreaterThanOrEqual(9 * MP3_FRAME_SECONDS);
    await writer.write(file.slice(144 * 10));
    await writer.close();
    await reading;
    expect(meter.seconds()).toBeCloseTo(20 * MP3_FRAME_SECONDS, 9);
  });
});
