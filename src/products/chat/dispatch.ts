import type { ChatRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatAdapter, ChatRequest } from '../../providers/chat/types';
import { DEFAULT_NON_STREAMED_TIMEOUT_MS, sendUpstream } from '../../providers/http';
import { upstreamIdleMs } from '../../providers/idle';
import { adapterOf, paramGroup, providerBaseUrl, providerKey } from '../../providers/registry';
import type { GuardOptions } from '../../web/guard';
import { imageFetcher } from './fetch-image';
import type { NativeWire } from './formats/format';
import { applyParamRules } from './params';

/** A client body that a provider takes as it is (D30), and what the native upstream request needs of the client's. */
export interface NativeCall<Body> {
  wire: NativeWire<Body>;
  body: Body;
  clientHeaders: Headers;
  clientQuery: string;
}

export interface Dispatched {
  route: ChatRoute;
  /** The adapter that translated the request; absent when the body went through native (`NativeCall`). */
  adapter?: ChatAdapter;
  response: Response;
  unsupported: string[];
  /** ms from the first upstream call to the answer's headers (a fallback's included). */
  upstreamMs: number;
}

/**
 * Calls the first route, and on a 429, a 5xx or no answer before any byte, once more on the next
 * route that serves the model. Parameter rules are those of the route that is called.
 */
export async function dispatchChat<Body>(
  request: ChatRequest,
  routes: ChatRoute[],
  options: { env: Env; signal: AbortSignal; maxTokens: number | null; guard: () => GuardOptions; native?: NativeCall<Body> },
): Promise<Dispatched> {
  let lastError: GatewayError | undefined;
  const started = Date.now();
  for (const [attempt, route] of routes.slice(0, 2).entries()) {
    const target = { baseUrl: providerBaseUrl(options.env, route.provider), apiKey: providerKey(options.env, route.provider) ?? '', upstreamModel: route.upstreamId };
    const timeoutMs = Number(options.env.UPSTREAM_TIMEOUT_MS) || (request.stream === true ? upstreamIdleMs(options.env) : DEFAULT_NON_STREAMED_TIMEOUT_MS);
    const native = options.native;
    if (native && native.wire.provider === route.provider) {
      // The provider speaks the client's format: its body goes through intact but the model id.
      const built = native.wire.buildRequest(native.body, target, { maxTokens: options.maxTokens, clientHeaders: native.clientHeaders, clientQuery: native.clientQuery });
      const outcome = await sendUpstream(built, { timeoutMs, signal: options.signal, errorMessage: native.wire.errorMessage });
      if (outcome.ok) return { route, response: outcome.response, unsupported: [], upstreamMs: Date.now() - started };
      lastError = outcome.error;
      if (!outcome.retryable) break;
      continue;
    }
    const adapter = adapterOf(route.provider, 'chat');
    if (!adapter) throw new GatewayError('provider_unavailable', `${route.provider} serves no chat.`);
    let plan;
    try {
      plan = applyParamRules(request, paramGroup(route), adapter.unapplied);
    } catch (err) {
      // The fallback route cannot honour a parameter the first one could: no retry there.
      if (attempt > 0 && lastError) throw lastError;
      throw err;
    }
    const upstreamRequest = { ...plan.request, model: route.upstreamId };
    if (options.maxTokens !== null) {
      upstreamRequest.max_tokens = options.maxTokens;
      delete upstreamRequest.max_completion_tokens;
    }
    const built = await adapter.buildRequest(upstreamRequest, target, imageFetcher(options.guard));
    // A stream's headers are its first byte (the idle bound); a whole answer's come after it is generated.
    const outcome = await sendUpstream(built, { timeoutMs, signal: options.signal, errorMessage: adapter.errorMessage });
    if (outcome.ok) return { route, adapter, response: outcome.response, unsupported: plan.unsupported, upstreamMs: Date.now() - started };
    lastError = outcome.error;
    if (!outcome.retryable) break;
  }
  throw lastError ?? new GatewayError('provider_unavailable', 'No provider could serve the request.');
}
