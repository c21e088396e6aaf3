import type { ChatRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ProviderConfig } from '../../providers/adapters';
import type { ChatAdapter, ChatRequest } from '../../providers/chat/types';
import { DEFAULT_NON_STREAMED_TIMEOUT_MS, sendUpstream } from '../../providers/http';
import { upstreamIdleMs } from '../../providers/idle';
import type { UpstreamOutcome } from '../../providers/upstream-errors';
import { adapterOf, paramGroup, PROVIDERS, providerBaseUrl, providerKey } from '../../providers/registry';
import type { GuardOptions } from '../../web/guard';
import type { Attempt } from './chat-plan';
import { imageFetcher } from './fetch-image';
import type { NativeWire } from './formats/format';
import type { RouteHealthSession } from './health/route-health';
import { applyParamRules } from './params';

/** A client body that a provider takes as it is (D30), and what the native upstream request needs of the client's. */
export interface NativeCall<Body> {
  wire: NativeWire<Body>;
  body: Body;
  clientHeaders: Headers;
  clientQuery: string;
}

/** One upstream call as the request lookup shows it: `status` the upstream's HTTP status, null when none came (timeout, refused). */
export interface AttemptRecord {
  provider: string;
  model: string;
  status: number | null;
  ms: number;
}

export interface Dispatched {
  /** The attempt that served. */
  attempt: Attempt;
  route: ChatRoute;
  /** The adapter that translated the request; absent when the body went through native (`NativeCall`). */
  adapter?: ChatAdapter;
  response: Response;
  unsupported: string[];
  /** ms from the first upstream call to the answer's headers (a fallback's included). */
  upstreamMs: number;
  /** Every call made, the serving one last. */
  attempts: AttemptRecord[];
}

/** A failure before any byte of an answer, and the calls made until then (for the request's record). */
export class DispatchFailed extends Error {
  constructor(
    readonly error: GatewayError,
    readonly attempts: AttemptRecord[],
    /** The attempt that answered last, when a route was called. */
    readonly last: Attempt | undefined,
  ) {
    super(error.message);
  }
}

export interface DispatchOptions<Body> {
  env: Env;
  signal: AbortSignal;
  maxTokensFor: (attempt: Attempt) => number | null;
  guard: () => GuardOptions;
  native?: NativeCall<Body>;
  /** Route health (the breaker): orders the attempts and hears each call's outcome; absent when off. */
  health?: RouteHealthSession;
}

/**
 * Whether a failed call moves on to the next attempt (D34): no answer (timeout, refused), a 429 or
 * a 5xx, and a 401, 402 or 403 (the provider's own account is dry or its key revoked). A 400 (the
 * request's own fault) is answered as it is, as is a client that left.
 */
function movesOn(outcome: UpstreamOutcome & { ok: false }, status: number | null): boolean {
  return outcome.retryable || status === 401 || status === 402 || status === 403;
}

/**
 * What all of a request's attempts may wait for their headers together, in single-call timeouts:
 * a hanging provider costs the client at most what two routes cost before D34's fallbacks, while a
 * provider that fails fast (refused, 5xx, 402) still moves on through every attempt.
 */
const ATTEMPT_BUDGET_CALLS = 2;

/**
 * Calls the attempts in order (`planChat`: the routes of `model`, then of each of `models`, as the
 * provider preferences allow) until one answers; each failure before the answer's headers moves on
 * (`movesOn`). A stream's headers are its first byte: once they are returned, there is no switch.
 * Parameter rules are those of the route that is called; its output cap that of its model's plan.
 */
export async function dispatchChat<Body>(request: ChatRequest, attempts: Attempt[], options: DispatchOptions<Body>): Promise<Dispatched> {
  const started = Date.now();
  const callTimeoutMs = Number(options.env.UPSTREAM_TIMEOUT_MS) || (request.stream === true ? upstreamIdleMs(options.env) : DEFAULT_NON_STREAMED_TIMEOUT_MS);
  const { health } = options;
  // Open routes last; a half-open one called first holds the probe slot for as long as the request may wait.
  const ordered = health ? await health.order(attempts, ATTEMPT_BUDGET_CALLS * callTimeoutMs) : attempts;
  try {
    return await callInOrder(request, ordered, options, { started, callTimeoutMs });
  } finally {
    // A probe slot taken and given no verdict (a 400, a client that left) goes back.
    health?.release();
  }
}

/** `dispatchChat`'s loop over the attempts, in the order route health gave them. */
async function callInOrder<Body>(
  request: ChatRequest,
  ordered: Attempt[],
  options: DispatchOptions<Body>,
  { started, callTimeoutMs }: { started: number; callTimeoutMs: number },
): Promise<Dispatched> {
  const { health } = options;
  let lastError: GatewayError | undefined;
  let last: Attempt | undefined;
  const records: AttemptRecord[] = [];
  for (const attempt of ordered) {
    // Up to 6 attempts, but hanging ones share one budget: no more waiting than two timeouts.
    const timeoutMs = Math.min(callTimeoutMs, ATTEMPT_BUDGET_CALLS * callTimeoutMs - (Date.now() - started));
    if (timeoutMs <= 0) break;
    const { route } = attempt;
    const target = { baseUrl: providerBaseUrl(options.env, route.provider), apiKey: providerKey(options.env, route.provider) ?? '', upstreamModel: route.upstreamId };
    const maxTokens = options.maxTokensFor(attempt);
    const native = options.native;
    let adapter: ChatAdapter | undefined;
    let unsupported: string[] = [];
    let call;
    if (native && native.wire.provider === route.provider) {
      // The provider speaks the client's format: its body goes through intact but the model id.
      const built = native.wire.buildRequest(native.body, target, { maxTokens, clientHeaders: native.clientHeaders, clientQuery: native.clientQuery });
      call = () => sendUpstream(built, { timeoutMs, signal: options.signal, errorMessage: native.wire.errorMessage });
    } else {
      adapter = adapterOf(route.provider, 'chat');
      if (!adapter) throw new DispatchFailed(new GatewayError('provider_unavailable', `${route.provider} serves no chat.`), records, last);
      // Routes that refuse a parameter were left out by the plan (`routesTakingParams`).
      const plan = applyParamRules({ ...request, model: attempt.model.id }, paramGroup(route), adapter.unapplied);
      unsupported = plan.unsupported;
      const upstreamRequest = { ...plan.request, model: route.upstreamId };
      if (maxTokens !== null) {
        upstreamRequest.max_tokens = maxTokens;
        delete upstreamRequest.max_completion_tokens;
      }
      const built = await adapter.buildRequest(upstreamRequest, target, imageFetcher(options.guard));
      const errorMessage = adapter.errorMessage;
      // The demo model answers inside the Worker; the rest of the pipeline is the same.
      const provider: ProviderConfig = PROVIDERS[route.provider];
      const { answer } = provider;
      call = answer ? async (): Promise<UpstreamOutcome> => ({ ok: true, response: answer(built) }) : () => sendUpstream(built, { timeoutMs, signal: options.signal, errorMessage });
    }
    const callStarted = Date.now();
    // A stream's headers are its first byte (the idle bound); a whole answer's come after it is generated.
    const outcome = await call();
    last = attempt;
    const status = outcome.ok ? outcome.response.status : (outcome.status ?? null);
    records.push({ provider: route.provider, model: attempt.model.id, status, ms: Date.now() - callStarted });
    if (outcome.ok) {
      health?.served(route);
      return { attempt, route, ...(adapter && { adapter }), response: outcome.response, unsupported, upstreamMs: Date.now() - started, attempts: records };
    }
    lastError = outcome.error;
    if (!movesOn(outcome, status)) break;
    // The failures that fail over are the route's; a 400 or a client that left says nothing of it.
    health?.failed(route, outcome.retryAfterMs);
  }
  throw new DispatchFailed(lastError ?? new GatewayError('provider_unavailable', 'No provider could serve the request.'), records, last);
}
