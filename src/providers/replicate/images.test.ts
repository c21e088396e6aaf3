import { describe, expect, it } from 'vitest';
import { closestAspectRatio } from './images';

describe('closestAspectRatio', () => {
  it.each([
    [1024, 1024, '1:1'],
    [1792, 1024, '16:9'],
    [1024, 1792, '9:16'],
    [1536, 1024, '3:2'],
    [1152, 864, '4:3'],
    [4096, 1024, '21:9'],
    [1, 4096, '9:21'],
  ])('maps %ix%i to %s', (width, height, ratio) => {
    expect(closestAspectRatio(width, height)).toBe(ratio);
  });
});
