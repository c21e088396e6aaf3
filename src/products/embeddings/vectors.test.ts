import { describe, expect, it } from 'vitest';
import { encodeVector } from './vectors';

describe('encodeVector', () => {
  it('writes base64 of little-endian float32s, as OpenAI does', () => {
    // 1.0 is 0x3f800000 and -2.0 is 0xc0000000 in float32; little-endian puts the low byte first.
    const encoded = encodeVector([1, -2], true) as string;
    expect([...atob(encoded)].map((c) => c.charCodeAt(0))).toEqual([0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
  });

  it('round-trips a long vector through Float32Array', () => {
    const vector = Array.from({ length: 3072 }, (_, i) => Math.fround(Math.sin(i)));
    const bytes = Uint8Array.from(atob(encodeVector(vector, true) as string), (c) => c.charCodeAt(0));
    expect([...new Float32Array(bytes.buffer)]).toEqual(vector);
  });

  it('leaves floats asked as floats, and a base64 the upstream sent, as they are', () => {
    expect(encodeVector([0.5], false)).toEqual([0.5]);
    expect(encodeVector('AAAAPw==', true)).toBe('AAAAPw==');
  });
});
