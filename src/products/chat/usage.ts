import type { Usage } from '../../providers/chat/types';
import { textTokens } from './estimate';

export { usageRecord, usageWire } from '../../providers/chat/usage';

/**
 * What to bill. A complete answer bills the upstream's report. When the report is missing, or
 * the answer was cut short (the client left, the upstream broke off: D6), the prompt estimate
 * stands in for missing input, and output is never less than the text that was delivered.
 */
export function billableUsage(report: Usage | null, promptEstimate: number, deliveredText: string | (() => string), complete: boolean): Usage {
  const reported = report && wholeCounts(report);
  if (reported && complete) return reported;
  // Only now is the delivered text counted: a complete, reported answer (the usual case) never is.
  const delivered = textTokens(typeof deliveredText === 'string' ? deliveredText : deliveredText());
  if (!reported) return { inputTokens: promptEstimate, outputTokens: delivered, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return { ...reported, outputTokens: Math.max(reported.outputTokens, delivered) };
}

/**
 * The most tokens of one kind a report is believed for: above every model's context window, so
 * no real answer reaches it, while a count like 1e308 stays a finite, exact charge.
 */
export const MAX_REPORTED_TOKENS = 10_000_000;

/**
 * A report as whole, non-negative token counts, at most MAX_REPORTED_TOKENS each. Adapters pass
 * on any finite number a provider sends; a fractional or negative count would otherwise stop the
 * exact integer pricing (D16) with an error after the work was done, and leave the hold to its
 * lease, and an absurd one would charge an amount no balance could ever repay.
 */
function wholeCounts(usage: Usage): Usage {
  const whole = (count: number) => (Number.isFinite(count) && count > 0 ? Math.min(Math.round(count), MAX_REPORTED_TOKENS) : 0);
  const outputTokens = whole(usage.outputTokens);
  return {
    inputTokens: whole(usage.inputTokens),
    outputTokens,
    cacheReadTokens: whole(usage.cacheReadTokens),
    cacheWriteTokens: whole(usage.cacheWriteTokens),
    ...(usage.cacheWrite1hTokens !== undefined && { cacheWrite1hTokens: whole(usage.cacheWrite1hTokens) }),
    // Reasoning is part of the output, so never more than it.
    ...(usage.reasoningTokens !== undefined && { reasoningTokens: Math.min(whole(usage.reasoningTokens), outputTokens) }),
  };
}
