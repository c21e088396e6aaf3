import { describe, expect, it } from 'vitest';
import { textTokens } from './estimate';
import { tokenCostMicros } from '../../billing/cost';
import { billableUsage, MAX_REPORTED_TOKENS } from './usage';

const reported = { inputTokens: 12, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0 };
const delivered = 'A long answer that the upstream said was only three tokens long, which it was not.';

describe('billableUsage', () => {
  it("bills a complete answer by the upstream's report, without counting the text", () => {
    let counted = 0;
    const usage = billableUsage(reported, 40, () => (counted++, delivered), true);
    expect(usage).toEqual(reported);
    expect(counted).toBe(0);
  });

  it('bills an answer without a report by the prompt estimate and the delivered text', () => {
    expect(billableUsage(null, 40, () => delivered, true)).toEqual({ inputTokens: 40, outputTokens: textTokens(delivered), cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(billableUsage(null, 40, delivered, false).outputTokens).toBe(textTokens(delivered));
  });

  it('never bills a cut-short answer for less output than it delivered', () => {
    expect(textTokens(delivered)).toBeGreaterThan(3);
    expect(billableUsage(reported, 40, delivered, false)).toEqual({ ...reported, outputTokens: textTokens(delivered) });
    expect(billableUsage({ ...reported, outputTokens: 500 }, 40, delivered, false).outputTokens).toBe(500);
  });

  it('bills a report of odd counts as whole, non-negative tokens, which price exactly', () => {
    const odd = { inputTokens: 12.6, outputTokens: -3, cacheReadTokens: Number.NaN, cacheWriteTokens: 2.4 };
    const usage = billableUsage(odd, 40, delivered, true);
    expect(usage).toEqual({ inputTokens: 13, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 2 });
    expect(tokenCostMicros(usage, { inputPerMTok: 1, outputPerMTok: 2 })).toBe(15);
    // Cut short: the delivered text still stands in for output the report leaves out.
    expect(billableUsage(odd, 40, delivered, false).outputTokens).toBe(textTokens(delivered));
  });

  it('believes no count above MAX_REPORTED_TOKENS, so an absurd report is a finite, exact charge', () => {
    const absurd = { inputTokens: 1e308, outputTokens: Number.MAX_SAFE_INTEGER, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const usage = billableUsage(absurd, 40, delivered, true);
    expect(usage).toMatchObject({ inputTokens: MAX_REPORTED_TOKENS, outputTokens: MAX_REPORTED_TOKENS });
    const micros = tokenCostMicros(usage, { inputPerMTok: 600, outputPerMTok: 600 });
    expect(Number.isSafeInteger(micros)).toBe(true);
    expect(micros).toBe(2 * 600 * MAX_REPORTED_TOKENS);
  });
});
