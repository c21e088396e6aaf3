import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { FundingHint } from '../errors';
import { paymentRequiredHeader } from './challenge';
import { challengeAmountMicros, x402Config } from './config';

/**
 * The `PAYMENT-REQUIRED` header of a 402 that names what is missing (D23), when x402 is on: the
 * shortfall of this request's hold (or the refused payment's amount), at least the minimum,
 * rounded up to a whole cent. Empty when x402 is off.
 */
export function x402Challenge(c: Context<AppEnv>, funding: FundingHint, reason: string): Record<string, string> {
  const config = x402Config(c.env);
  if (!config) return {};
  const amount = challengeAmountMicros(config, funding.x402AmountMicros ?? funding.requiredMicros - funding.availableMicros);
  return { 'PAYMENT-REQUIRED': paymentRequiredHeader(config, c.req.url, amount, reason) };
}
