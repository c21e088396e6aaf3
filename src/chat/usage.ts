import type { Usage } from '../providers/chat/types';
import { textTokens } from './estimate';

export { usageWire } from '../providers/chat/usage';

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
 * A report as whole, non-negative token counts. Adapters pass on any finite number a provider
 * sends; a fractional or negative count would otherwise stop the exact integer pricing (D16) with
 * an error after the work was done, and leave the hold to its lease.
 */
function wholeCounts(usage: Usage): Usage {
  const whole = (count: number) => (Number.isFinite(count) && count > 0 ? Math.round(count) : 0);
  return {
    inputTokens: whole(usage.inputTokens),
    outputTokens: whole(usage.outputTokens),
    cacheReadTokens: whole(usage.cacheReadTokens),
    cacheWriteTokens: whole(usage.cacheWriteTokens),
  };
}
