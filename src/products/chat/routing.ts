import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { ChatModel, ChatRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';
import type { ProviderId } from '../../providers/ids';
import { adapterOf, isProviderId, paramGroup } from '../../providers/registry';
import { applyParamRules } from './params';
import type { ProviderPrefs, Routing } from './routing-schema';

/** The models a request may be served by, in order: `model`, then `models` (D34), each once; local ones looked up in `env`'s list. */
export function candidateModels(primary: ChatModel, routing: Routing, env: Env): ChatModel[] {
  const models = [primary];
  routing.models.forEach((id, i) => {
    let model: ChatModel;
    try {
      model = resolveModel(id, 'chat', env);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      throw new GatewayError('invalid_request', `models.${i}: ${err.message}`, { param: `models.${i}` });
    }
    if (!models.some((known) => known.id === model.id)) models.push(model);
  });
  checkProviderNames(routing.provider);
  return models;
}

/** Every name in `order`, `only` and `ignore` is a provider of the registry (as `/v1/models` names them). */
function checkProviderNames(prefs: ProviderPrefs): void {
  for (const member of ['order', 'only', 'ignore'] as const) {
    (prefs[member] ?? []).forEach((name, i) => {
      if (!isProviderId(name)) throw new GatewayError('invalid_request', `provider.${member}.${i}: no provider ${name}; GET /v1/models names them under endpoints[].provider.`, { param: `provider.${member}.${i}` });
    });
  }
}

const cost = (route: ChatRoute) => route.price.inputPerMTok + route.price.outputPerMTok;

/**
 * The routes of `model` the preferences allow, in the order they are tried: `only` and `ignore`
 * and `max_price` filter; `order` puts its providers first; `sort: "price"` the cheapest first
 * (`latency` and `throughput` keep the catalog's order: route health, `health/`, tracks failures,
 * not speed; it moves a route whose breaker is open after the others at dispatch, whatever the sort);
 * `allow_fallbacks: false` keeps the first (of `order`'s providers, when given). A 400 naming
 * `provider` when none is left.
 */
export function preferredRoutes(model: ChatModel, env: Env, prefs: ProviderPrefs): ChatRoute[] {
  const named = (list: string[] | undefined, provider: ProviderId) => list?.includes(provider) ?? false;
  let routes = servingRoutes(model, env).filter(
    (route) =>
      (prefs.only === undefined || named(prefs.only, route.provider)) &&
      !named(prefs.ignore, route.provider) &&
      (prefs.max_price?.prompt === undefined || route.price.inputPerMTok <= prefs.max_price.prompt) &&
      (prefs.max_price?.completion === undefined || route.price.outputPerMTok <= prefs.max_price.completion),
  );
  // Stable sorts: ties keep the catalog's order.
  if (prefs.sort === 'price') routes = [...routes].sort((a, b) => cost(a) - cost(b));
  const order = prefs.order ?? [];
  if (order.length > 0) {
    const rank = (route: ChatRoute) => (order.includes(route.provider) ? order.indexOf(route.provider) : order.length);
    routes = [...routes].sort((a, b) => rank(a) - rank(b));
  }
  if (prefs.allow_fallbacks === false) routes = (order.length > 0 ? routes.filter((route) => order.includes(route.provider)) : routes).slice(0, 1);
  if (routes.length === 0) {
    throw new GatewayError('invalid_request', `No route of ${model.id} matches the provider preferences (its providers: ${servingRoutes(model, env).map((r) => r.provider).join(', ')}).`, {
      param: 'provider',
    });
  }
  return routes;
}

/**
 * The routes that take the request's parameters: a route whose parameter rules refuse it (a
 * parameter that would change the answer's shape) is left out; with `require_parameters`, so is a
 * route that would drop one. `native`: the provider that gets the client's body intact, which
 * applies every parameter. None left: the first route's refusal, or a 400 naming the parameter.
 */
export function routesTakingParams(request: ChatRequest, routes: ChatRoute[], requireAll: boolean, native: ProviderId | undefined): ChatRoute[] {
  let refusal: GatewayError | undefined;
  let dropped: string | undefined;
  const kept = routes.filter((route) => {
    if (route.provider === native) return true;
    try {
      const { unsupported } = applyParamRules(request, paramGroup(route), adapterOf(route.provider, 'chat')?.unapplied);
      if (requireAll && unsupported.length > 0) {
        dropped ??= unsupported[0];
        return false;
      }
      return true;
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      refusal ??= err;
      return false;
    }
  });
  if (kept.length > 0) return kept;
  if (refusal) throw refusal;
  throw new GatewayError('invalid_request', `${dropped} is not applied by any route of this model, and provider.require_parameters is true.`, { param: dropped ?? 'provider.require_parameters' });
}
