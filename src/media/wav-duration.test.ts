import { describe, expect, it } from 'vitest';
import { throughPieces, wavFile } from '../../test/fixtures/audio';
import { wavDurationMeter } from './wav-duration';

async function measure(bytes: Uint8Array, piece: number) {
  const meter = wavDurationMeter();
  expect(await throughPieces(meter.stream, bytes, piece)).toEqual(bytes);
  return meter.seconds();
}

describe('wavDurationMeter', () => {
  it.each([1, 5, 8192])('reads data bytes over the byte rate, fed %i bytes at a time', async (piece) => {
    expect(await measure(wavFile(2.5), piece)).toBe(2.5);
  });

  it('skips chunks before data and reads a stereo 44.1 kHz file', async () => {
    expect(await measure(wavFile(0.2, { sampleRate: 44100, channels: 2, list: true }), 1)).toBe(0.2);
  });

  it('never believes a data size beyond the bytes that came', async () => {
    expect(await measure(wavFile(1, { statedDataBytes: 16000 * 600 }), 333)).toBe(1);
    // A streamed recording states 0: its data runs to the end.
    expect(await measure(wavFile(3, { statedDataBytes: 0 }), 1000)).toBe(3);
  });

  it('reads the length a decoder plays, whatever byte rate the header states', async () => {
    // A header stating 100 times the byte rate would read as 1/100 of the audio; a decoder plays by
    // the sample rate, channels and sample size.
    const file = wavFile(2);
    new DataView(file.buffer).setUint32(28, 16000 * 100, true);
    expect(await measure(file, 64)).toBe(2);
    // So too a block alignment that claims wider frames than the samples take.
    const wide = wavFile(2);
    new DataView(wide.buffer).setUint16(32, 200, true);
    new DataView(wide.buffer).setUint32(28, 8000 * 200, true);
    expect(await measure(wide, 64)).toBe(2);
  });

  it('times no encoding of compressed blocks (ADPCM, GSM, MP3 in WAV): their length is not in the header', async () => {
    for (const encoding of [2, 0x11, 0x31, 0x55]) {
      const file = wavFile(1);
      new DataView(file.buffer).setUint16(20, encoding, true);
      expect(await measure(file, 64)).toBeUndefined();
    }
  });

  it('tells no length for a file that is not RIFF/WAVE', async () => {
    expect(await measure(new TextEncoder().encode('RIFF....AVI LIST'), 1)).toBeUndefined();
  });
});
