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

  it('tells no length for a file that is not RIFF/WAVE', async () => {
    expect(await measure(new TextEncoder().encode('RIFF....AVI LIST'), 1)).toBeUndefined();
  });
});
