import { describe, expect, it } from 'vitest';
import { affordableOutputTokens, roundHalfUp, tokenCostMicros } from './cost';

const usage = (inputTokens: number, outputTokens: number, cacheReadTokens = 0, cacheWriteTokens = 0) => ({
  inputTokens,
  outputTokens,
  cacheReadTokens,
  cacheWriteTokens,
});

describe('tokenCostMicros', () => {
  it.each([
    // GPT-4o: $2.50 / $10.00 per million tokens.
    [usage(1000, 500), { inputPerMTok: 2.5, outputPerMTok: 10 }, 7500],
    [usage(1_000_000, 0), { inputPerMTok: 2.5, outputPerMTok: 10 }, 2_500_000],
    // GPT-4o mini: $0.15 / $0.60; 0.15 has no exact binary form, the integer scale keeps it exact.
    [usage(3, 0), { inputPerMTok: 0.15, outputPerMTok: 0.6 }, 0], // 0.45 µ$ rounds down
    [usage(10, 0), { inputPerMTok: 0.15, outputPerMTok: 0.6 }, 2], // 1.5 µ$ rounds half up
    [usage(7, 3), { inputPerMTok: 0.15, outputPerMTok: 0.6 }, 3], // 1.05 + 1.8 = 2.85
    // Cache reads and writes at their own prices (Claude Sonnet: 3 / 15, read 0.30, write 3.75).
    [usage(100, 200, 10_000, 2000), { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 }, 13_800],
    // Without a cache price, cache tokens pay the input price.
    [usage(0, 0, 1000, 1000), { inputPerMTok: 1, outputPerMTok: 2 }, 2000],
    // D31: 1-hour writes at their own price (Sonnet: 6, twice input), not the 5-minute 3.75.
    [{ ...usage(1000, 505, 2000, 3000), cacheWrite1hTokens: 4000 }, { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75, cacheWrite1hPerMTok: 6 }, 46_425],
    // Without a 1-hour price, 1-hour writes pay the 5-minute write price.
    [{ ...usage(0, 0), cacheWrite1hTokens: 1000 }, { inputPerMTok: 1, outputPerMTok: 2, cacheWritePerMTok: 1.25 }, 1250],
  ])('charges %o at %o: %i micro-dollars', (u, price, micros) => {
    expect(tokenCostMicros(u, price)).toBe(micros);
  });

  it('rounds once per request, not per token', () => {
    // 1,000,000 tokens at $0.075/M: per-token rounding would give 0; the exact cost is 75,000 µ$.
    expect(tokenCostMicros(usage(1_000_000, 0), { inputPerMTok: 0.075, outputPerMTok: 0.3 })).toBe(75_000);
  });
});

describe('roundHalfUp', () => {
  it.each([
    [5n, 10n, 1],
    [4n, 10n, 0],
    [15n, 10n, 2],
    [0n, 7n, 0],
  ])('%i / %i rounds to %i', (n, d, out) => {
    expect(roundHalfUp(n, d)).toBe(out);
  });
});

describe('affordableOutputTokens', () => {
  it('counts what the money covers after the prompt', () => {
    // $0.01 at 2.5/10: prompt of 1000 tokens costs 2500 µ$, 7500 µ$ left pays 750 output tokens.
    expect(affordableOutputTokens(10_000, 1000, { inputPerMTok: 2.5, outputPerMTok: 10 })).toBe(750);
    expect(affordableOutputTokens(2_000, 1000, { inputPerMTok: 2.5, outputPerMTok: 10 })).toBe(0);
  });
});
