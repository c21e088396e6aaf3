import type { TokenPrice } from '../catalog/types';
import type { Usage } from '../providers/chat/types';

/** Prices are scaled to whole units of 1e-12 USD per token so every product is an exact integer. */
const SCALE = 1_000_000n;

/** USD per million tokens (= micro-dollars per token) as an exact integer count of 1e-12 USD. */
function scaled(perMTok: number | undefined): bigint {
  return BigInt(Math.round((perMTok ?? 0) * Number(SCALE)));
}

/** `numerator / denominator` rounded half up, for non-negative values (D16). */
export function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

/**
 * The exact cost of a chat call in micro-dollars, rounded once (D16, D31): uncached input, cache
 * reads, 5-minute writes, 1-hour writes and output (reasoning included), each at its own price.
 * A cache price the catalog lacks is the input price (a 1-hour write without its own price: the
 * 5-minute write price, else input).
 */
export function tokenCostMicros(usage: Usage, price: TokenPrice): number {
  const input = scaled(price.inputPerMTok);
  const write5m = price.cacheWritePerMTok === undefined ? input : scaled(price.cacheWritePerMTok);
  const write1h = price.cacheWrite1hPerMTok === undefined ? write5m : scaled(price.cacheWrite1hPerMTok);
  const total =
    BigInt(usage.inputTokens) * input +
    BigInt(usage.outputTokens) * scaled(price.outputPerMTok) +
    BigInt(usage.cacheReadTokens) * (price.cacheReadPerMTok === undefined ? input : scaled(price.cacheReadPerMTok)) +
    BigInt(usage.cacheWriteTokens) * write5m +
    BigInt(usage.cacheWrite1hTokens ?? 0) * write1h;
  return roundHalfUp(total, SCALE);
}

/** How many output tokens `micros` pays for after `inputTokens` of prompt (D5's 402 message and cap). */
export function affordableOutputTokens(micros: number, inputTokens: number, price: TokenPrice): number {
  const left = BigInt(micros) * SCALE - BigInt(inputTokens) * scaled(price.inputPerMTok);
  const perToken = scaled(price.outputPerMTok);
  if (left <= 0n) return 0;
  return perToken === 0n ? Number.MAX_SAFE_INTEGER : Number(left / perToken);
}
