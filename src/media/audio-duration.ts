import { mp3DurationMeter } from './mp3-duration';
import { mp4DurationMeter } from './mp4-duration';
import { wavDurationMeter } from './wav-duration';
import type { DurationMeter } from './duration-meter';

export type { DurationMeter };

/**
 * The audio formats whose length the gateway reads from the file itself (never from the client):
 * MP3 (every frame), WAV (RIFF `fmt ` and `data`) and MP4/M4A (AAC: its headers and sample tables).
 */
export type AudioFormat = 'mp3' | 'wav' | 'm4a';

/** What each format is sent upstream as. */
export const AUDIO_TYPES: Record<AudioFormat, { contentType: string; extension: string }> = {
  mp3: { contentType: 'audio/mpeg', extension: 'mp3' },
  wav: { contentType: 'audio/wav', extension: 'wav' },
  m4a: { contentType: 'audio/mp4', extension: 'm4a' },
};

/** Bytes `sniffAudio` reads. */
export const AUDIO_SNIFF_BYTES = 12;

const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/**
 * The format a file's first bytes name: a measured one, `unmeasured` for audio the gateway
 * cannot time (Ogg, WebM/Matroska, FLAC), or `unknown` for anything else (not audio).
 */
export function sniffAudio(head: Uint8Array): AudioFormat | 'unmeasured' | 'unknown' {
  if (ascii(head, 0, 3) === 'ID3' || (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'wav';
  if (ascii(head, 4, 8) === 'ftyp') return 'm4a';
  if (ascii(head, 0, 4) === 'OggS' || ascii(head, 0, 4) === 'fLaC' || (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3)) return 'unmeasured';
  return 'unknown';
}

export function durationMeter(format: AudioFormat): DurationMeter {
  switch (format) {
    case 'mp3':
      return mp3DurationMeter();
    case 'wav':
      return wavDurationMeter();
    case 'm4a':
      return mp4DurationMeter({ audio: true });
  }
}

/**
 * The lowest bitrate a file is taken to have before it is measured: 8 kbit/s, MPEG-2.5 Layer
 * III's lowest, below any AAC or PCM rate in common use. A file's size at this rate bounds its
 * length from above, so the hold placed before the upstream call bounds the charge (D33).
 */
export const LOWEST_BITS_PER_SECOND = 8000;

/** The longest a file of `bytes` can play at the lowest bitrate, in whole seconds. */
export function longestSeconds(bytes: number): number {
  return Math.ceil((bytes * 8) / LOWEST_BITS_PER_SECOND);
}
