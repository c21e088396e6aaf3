import { findModel, liveRoutes } from '../catalog';
import type { ChatModel, ChatRoute, TokenPrice } from '../catalog/types';
import { GatewayError } from '../errors';

/** The chat model a slug names and its configured routes; 404 (D11) or 400 otherwise. */
export function resolveChatModel(slug: string, env: Env): { model: ChatModel; routes: ChatRoute[] } {
  const model = findModel(slug);
  if (!model) throw new GatewayError('model_not_found', `No model ${slug}; GET /v1/models lists them.`, { param: 'model' });
  if (model.type !== 'chat') {
    throw new GatewayError('invalid_request', `${slug} is an ${model.type} model, not a chat model.`, { param: 'model' });
  }
  const routes = liveRoutes(model, env);
  if (routes.length === 0) throw new GatewayError('model_not_found', `${slug} is not served by this gateway.`, { param: 'model' });
  return { model, routes };
}

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
