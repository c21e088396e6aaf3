import type { ChatRoute, TokenPrice } from '../catalog/types';

/** The highest price among the routes: the hold must cover whichever route ends up serving. */
export function holdPrice(routes: ChatRoute[]): TokenPrice {
  const highest = (pick: (price: TokenPrice) => number | undefined) => Math.max(...routes.map((route) => pick(route.price) ?? 0));
  return {
    inputPerMTok: highest((p) => p.inputPerMTok),
    outputPerMTok: highest((p) => p.outputPerMTok),
    cacheReadPerMTok: highest((p) => p.cacheReadPerMTok ?? p.inputPerMTok),
    cacheWritePerMTok: highest((p) => p.cacheWritePerMTok ?? p.inputPerMTok),
  };
}
