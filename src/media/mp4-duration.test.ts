import { describe, expect, it } from 'vitest';
import { concat, m4aFile, mp4Box } from '../../test/fixtures/audio';
import { mp4DurationMeter } from './mp4-duration';

/** Streams `file` through a meter in pieces of `piece` bytes; answers the seconds read and whether every byte passed unchanged. */
async function measure(file: Uint8Array, piece: number, audio = true) {
  const meter = mp4DurationMeter({ audio });
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let at = 0; at < file.length; at += piece) controller.enqueue(file.slice(at, at + piece));
      controller.close();
    },
  });
  const passed = new Uint8Array(await new Response(source.pipeThrough(meter.stream)).arrayBuffer());
  return { seconds: meter.seconds(), intact: passed.length === file.length && passed.every((byte, i) => byte === file[i]) };
}

/** 64 AAC frames at 16 kHz: 4.096 s. */
const FRAMES = 64;
const FRAMES_SECONDS = (FRAMES * 1024) / 16000;

describe('mp4DurationMeter', () => {
  it.each([1, 7, 64, 100_000])('reads the index after the media data (a file not prepared for streaming), in %i-byte pieces', async (piece) => {
    expect(await measure(m4aFile(7, { mediaBytes: 50_000 }), piece)).toEqual({ seconds: 7, intact: true });
  });

  it('reads the index before the media data, and passes over a 64-bit media box to the index after it', async () => {
    expect(await measure(m4aFile(12.5, { moovFirst: true, mediaBytes: 10_000 }), 333)).toEqual({ seconds: 12.5, intact: true });
    expect(await measure(m4aFile(3, { largeMdat: true, mediaBytes: 20_000 }), 4096)).toEqual({ seconds: 3, intact: true });
  });

  it('reads what a decoder plays, however short the headers say it is', async () => {
    // Movie and track headers stating a millisecond: the 64 listed frames still play.
    expect((await measure(m4aFile(FRAMES_SECONDS, { frames: FRAMES, statedSeconds: 0.001 }), 500)).seconds).toBeCloseTo(FRAMES_SECONDS, 9);
    // A time scale that makes every sample last a nanosecond: an AAC decoder plays 1,024 samples a frame at its own rate.
    const scaled = m4aFile(FRAMES_SECONDS, { frames: FRAMES, statedSeconds: 0.001, timescale: 1_000_000_000, sampleDelta: 1 });
    expect((await measure(scaled, 500)).seconds).toBeCloseTo(FRAMES_SECONDS, 9);
    // And the longest figure wins the other way too: headers stating more are believed.
    expect((await measure(m4aFile(FRAMES_SECONDS, { frames: FRAMES, statedSeconds: 60 }), 500)).seconds).toBe(60);
  });

  it.each([
    ['no moov', concat([mp4Box('ftyp', new Uint8Array(8)), mp4Box('mdat', new Uint8Array(1000))])],
    ['a moov with no track', concat([mp4Box('ftyp', new Uint8Array(8)), mp4Box('moov', mp4Box('mvhd', new Uint8Array(100)))])],
    ['a fragmented file (its samples past the index)', m4aFile(5, { fragmented: true })],
    ['an audio track that is not AAC (ALAC)', m4aFile(5, { codec: 'alac' })],
    ['a cut-off file', m4aFile(5, { moovFirst: true }).slice(0, 120)],
    ['bytes that are not an MP4', new Uint8Array(5000).fill(0xff)],
  ])('knows no length for %s, and still passes every byte', async (_, file) => {
    expect(await measure(file, 100)).toEqual({ seconds: undefined, intact: true });
  });

  it("times a provider's rendered video by the longest figure of its headers, with no AAC track required", async () => {
    expect((await measure(m4aFile(5, { codec: 'avc1' }), 100, false)).seconds).toBe(5);
    expect((await measure(m4aFile(5, { codec: 'avc1', statedSeconds: 6 }), 100, false)).seconds).toBe(6);
    expect((await measure(m4aFile(5, { fragmented: true }), 100, false)).seconds).toBeUndefined();
  });
});
