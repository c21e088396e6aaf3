import type { Usage } from '../providers/chat/types';
import { textTokens } from './estimate';

export { usageWire } from '../providers/chat/usage';

/**
 * What to bill. A complete answer bills the upstream's report. When the report is missing, or
 * the answer was cut short (the client left, the upstream broke off: D6), the prompt estimate
 * stands in for missing input, and output is never less than the text that was delivered.
 */
export function billableUsage(reported: Usage | null, promptEstimate: number, deliveredText: string | (() => string), complete: boolean): Usage {
  if (reported && complete) return reported;
  // Only now is the delivered text counted: a complete, reported answer (the usual case) never is.
  const delivered = textTokens(typeof deliveredText === 'string' ? deliveredText : deliveredText());
  if (!reported) return { inputTokens: promptEstimate, outputTokens: delivered, cacheReadTokens: 0, cacheWriteTokens: 0 };
  return { ...reported, outputTokens: Math.max(reported.outputTokens, delivered) };
}
