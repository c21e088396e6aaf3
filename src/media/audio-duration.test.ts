import { describe, expect, it } from 'vitest';
import { m4aFile, mp3File, throughPieces, wavFile } from '../../test/fixtures/audio';
import { durationMeter, longestSeconds, sniffAudio } from './audio-duration';

describe('sniffAudio', () => {
  it.each([
    ['an MP3 with an ID3 tag', mp3File(2, { id3: true }), 'mp3'],
    ['an MP3 frame', mp3File(2), 'mp3'],
    ['a WAV', wavFile(0.1), 'wav'],
    ['an M4A', m4aFile(1), 'm4a'],
    ['an Ogg', new TextEncoder().encode('OggS\0\x02\0\0\0\0\0\0'), 'unmeasured'],
    ['a WebM', new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0, 0, 0, 0, 0, 0]), 'unmeasured'],
    ['a PNG', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]), 'unknown'],
    ['text', new TextEncoder().encode('hello world!'), 'unknown'],
  ] as const)('names %s', (_name, head, format) => {
    expect(sniffAudio(head.subarray(0, 12))).toBe(format);
  });
});

describe('durationMeter', () => {
  it('reads an M4A through the MP4 reader, fed 1 byte at a time', async () => {
    const meter = durationMeter('m4a');
    await throughPieces(meter.stream, m4aFile(12.5), 1);
    expect(meter.seconds()).toBe(12.5);
  });
});

describe('longestSeconds', () => {
  it('bounds a file by its size at 8 kbit/s', () => {
    expect(longestSeconds(1000)).toBe(1);
    expect(longestSeconds(1001)).toBe(2);
    expect(longestSeconds(25 * 1024 * 1024)).toBe(26_215);
  });
});
