import { describe, expect, it } from 'vitest';
import { formatUsd, parseUsd, toUsdNumber } from './money';

describe('money', () => {
  it.each([
    [0, '0.000000'],
    [1, '0.000001'],
    [4_998_731, '4.998731'],
    [12_500_000, '12.500000'],
    [-250, '-0.000250'],
    [-3_000_001, '-3.000001'],
  ])('formats %i micro-dollars as %s', (micros, text) => {
    expect(formatUsd(micros)).toBe(text);
  });

  it.each([
    ['12.50', 12_500_000],
    ['0.000001', 1],
    ['-1.250001', -1_250_001],
    ['7', 7_000_000],
    [' 3.1 ', 3_100_000],
  ])('parses %s exactly', (text, micros) => {
    expect(parseUsd(text)).toBe(micros);
  });

  it.each(['1.0000001', 'ten', '1e3', '', '.5', '1.', '--1', '0x10'])('refuses %j', (text) => {
    expect(parseUsd(text)).toBeNull();
  });

  it('round-trips every formatted amount', () => {
    for (const micros of [0, 1, 999_999, 1_000_000, 123_456_789, -42]) expect(parseUsd(formatUsd(micros))).toBe(micros);
  });

  it('turns micro-dollars into a JSON number without float noise', () => {
    expect(toUsdNumber(5_000)).toBe(0.005);
    expect(toUsdNumber(8_000)).toBe(0.008);
  });
});
