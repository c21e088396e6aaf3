import { liveRoutes } from '../../catalog';
import type { ChatModel } from '../../catalog/types';
import { adapterOf, paramGroup, serves } from '../../providers/registry';
import { routeStatus } from './health/route-health';
import { appliedParameters } from './params';

/** USD per million tokens to USD per token, as `/v1/models` prices are written. */
const perToken = (perMTok: number) => Number(`${perMTok}e-6`);

/**
 * A chat model's endpoints as `/v1/models` lists them (D34): each configured route that serves it,
 * in catalog order, with the provider name `provider.order/only/ignore` take, its price, the
 * context length, the parameters it applies (`require_parameters` serves only where all given are
 * among them), and its status from this isolate's copy of route health (`routeStatus`: `down` while
 * its breaker is open, `degraded` half-open or after recent failures, else `ok`).
 */
export function chatEndpoints(model: ChatModel, env: Env) {
  // `servingRoutes` without its 404: a listed model with no chat rail yet lists no endpoint.
  return liveRoutes(model, env)
    .filter((route) => serves(route.provider, 'chat'))
    .map((route) => ({
      provider: route.provider,
      pricing: {
        input: perToken(route.price.inputPerMTok),
        output: perToken(route.price.outputPerMTok),
        ...(route.price.cacheReadPerMTok !== undefined && { cache_read: perToken(route.price.cacheReadPerMTok) }),
        ...(route.price.cacheWritePerMTok !== undefined && { cache_write: perToken(route.price.cacheWritePerMTok) }),
      },
      context_length: model.contextLength,
      parameters: appliedParameters(paramGroup(route), adapterOf(route.provider, 'chat')?.unapplied),
      status: routeStatus(route, env),
    }));
}
