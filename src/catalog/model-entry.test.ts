import { describe, expect, it } from 'vitest';
import { formatPrice } from './model-entry';

describe('formatPrice', () => {
  it.each([
    [2.5, '2.50'],
    [10, '10.00'],
    [0.075, '0.075'],
    [0.0035, '0.0035'],
    [0.15, '0.15'],
  ])('shows %d as %s', (usd, text) => {
    expect(formatPrice(usd)).toBe(text);
  });
});
