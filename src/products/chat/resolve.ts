import type { ChatRoute, TokenPrice } from '../../catalog/types';

/**
 * The highest price among the routes: the hold must cover whichever route ends up serving. Its
 * input price is the dearest a prompt token can be billed at (D33): a cache write costs more than
 * plain input (Anthropic: 1.25 times), so a prompt written to the cache whole still fits the hold.
 */
export function holdPrice(routes: ChatRoute[]): TokenPrice {
  const highest = (pick: (price: TokenPrice) => number | undefined) => Math.max(...routes.map((route) => pick(route.price) ?? 0));
  const dearestPrompt = (p: TokenPrice) => Math.max(p.inputPerMTok, p.cacheWritePerMTok ?? 0, p.cacheReadPerMTok ?? 0);
  return {
    inputPerMTok: highest(dearestPrompt),
    outputPerMTok: highest((p) => p.outputPerMTok),
    cacheReadPerMTok: highest((p) => p.cacheReadPerMTok ?? p.inputPerMTok),
    cacheWritePerMTok: highest((p) => p.cacheWritePerMTok ?? p.inputPerMTok),
  };
}
