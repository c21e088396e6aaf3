import type { ChatRoute, TokenPrice } from '../../catalog/types';

/**
 * The highest price among the routes: the hold must cover whichever route ends up serving. Its
 * input price is the dearest a prompt token can be billed at (D31, D33): a cache write costs more
 * than plain input (Anthropic: 1.25 times for 5 minutes, 2 times for an hour), so a prompt written
 * to the cache whole, for an hour, still fits the hold.
 */
export function holdPrice(routes: ChatRoute[]): TokenPrice {
  const highest = (pick: (price: TokenPrice) => number | undefined) => Math.max(...routes.map((route) => pick(route.price) ?? 0));
  const dearestPrompt = (p: TokenPrice) => Math.max(p.inputPerMTok, p.cacheWritePerMTok ?? 0, p.cacheWrite1hPerMTok ?? 0, p.cacheReadPerMTok ?? 0);
  return {
    inputPerMTok: highest(dearestPrompt),
    outputPerMTok: highest((p) => p.outputPerMTok),
    cacheReadPerMTok: highest((p) => p.cacheReadPerMTok ?? p.inputPerMTok),
    cacheWritePerMTok: highest((p) => p.cacheWritePerMTok ?? p.inputPerMTok),
    cacheWrite1hPerMTok: highest((p) => p.cacheWrite1hPerMTok ?? p.cacheWritePerMTok ?? p.inputPerMTok),
  };
}
