import type { Vector } from '../../providers/adapters';

/** A vector as the client asked for it: floats, or OpenAI's base64 of little-endian float32s. */
export function encodeVector(vector: Vector, base64: boolean): Vector {
  if (!base64 || typeof vector === 'string') return vector;
  const view = new DataView(new ArrayBuffer(vector.length * 4));
  vector.forEach((value, i) => view.setFloat32(i * 4, value, true));
  const bytes = new Uint8Array(view.buffer);
  let binary = '';
  // In chunks: one call per byte is slow, one call for 12 KB overflows the argument list on some engines.
  for (let i = 0; i < bytes.length; i += 0x2000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x2000));
  return btoa(binary);
}
