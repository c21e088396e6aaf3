import { describe, expect, it } from 'vitest';
import { displayUsd } from './shell';

describe('money on pages', () => {
  it.each([
    [20_000_000, '$20.00'],
    [19_998_508, '$20.00'],
    [1_234_567_890, '$1,234.57'],
    [10_000, '$0.01'],
    [42_000, '$0.04'],
    [0, '$0.00'],
    [9_999, '$0.009999'],
    [99, '$0.000099'],
    [2_000, '$0.002'],
    [-5_000_000, '-$5.00'],
    [-1_500, '-$0.0015'],
  ])('writes %i micro-dollars as %s: cents, and the micro-dollars only below a cent', (micros, shown) => {
    expect(displayUsd(micros)).toBe(shown);
  });
});
