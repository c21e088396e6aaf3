import { describe, expect, it } from 'vitest';
import { splitForSpeech } from './split';

describe('splitForSpeech', () => {
  it('keeps a text under the limit whole', () => {
    expect(splitForSpeech('Hello there. How are you?', 4096)).toEqual(['Hello there. How are you?']);
  });

  it('cuts at sentence ends, every part within the limit, nothing lost', () => {
    const text = Array.from({ length: 120 }, (_, i) => `Sentence number ${i} says something short and plain.`).join(' ');
    const parts = splitForSpeech(text, 1000);
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(1000);
      expect(part.endsWith('.')).toBe(true);
    }
    expect(parts.join(' ')).toBe(text);
  });

  it('cuts a sentence longer than the limit at spaces, and a longer word anywhere', () => {
    const long = `${'word '.repeat(50).trim()}.`;
    expect(splitForSpeech(long, 40).every((part) => part.length <= 40)).toBe(true);
    expect(splitForSpeech(long, 40).join(' ')).toBe(long);
    expect(splitForSpeech('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});
