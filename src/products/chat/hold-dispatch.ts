import type { Context } from 'hono';
import { releaseHold } from '../../accounts/billed';
import { holdFailureError } from '../../accounts/failures';
import { CHAT_HOLD_LEASE_MS, keepHoldAlive } from '../../accounts/hold-lease';
import type { AppEnv } from '../../env';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import type { Hold } from '../../../durable-objects/account/types';
import type { ChatRequest } from '../../providers/chat/types';
import { executionContext } from '../../execution-context';
import { requestGuard } from '../../web/policy';
import type { ChatPlan } from './chat-plan';
import { DispatchFailed, dispatchChat, type Dispatched, type NativeCall } from './dispatch';
import { routeHealth } from './health/route-health';
import { loweredMaxTokens, shortfallMessage } from './hold-plan';
import { maySpeculate } from './speculation';

/** Requests a minute one account may make to the demo model `gateway/echo` (docs: README quick start). */
export const DEMO_REQUESTS_PER_MINUTE = 60;

/** Refusals of a hold for the full worst case that a smaller hold may still pass. */
const SHORTFALLS: ReadonlySet<string> = new Set(['insufficient_credits', 'insufficient_org_credits', 'member_cap_exceeded', 'daily_limit', 'monthly_limit', 'total_limit']);

export interface HeldDispatch {
  hold: Hold;
  dispatched: Dispatched;
  /** Aborts the upstream request (a client that left, D6). */
  abortUpstream: () => void;
  /** Stops renewing the hold's lease; call before its settlement or release. */
  stopLease: () => void;
  /** Whether the upstream was called before the hold was confirmed (D21). */
  speculative: boolean;
}

interface Ask<Body> {
  request: ChatRequest;
  plan: ChatPlan;
  /** The client's body, for a route whose provider speaks its format (D30). */
  native?: NativeCall<Body>;
  /** The record of a request whose every attempt failed (D26: its attempts shown by the lookup). */
  failedRecord: (failed: DispatchFailed) => RequestRecord;
}

/**
 * Holds the worst case in the account's Durable Object and calls the upstream. In strict order
 * (the hold, then the upstream) unless this isolate has fresh evidence that the key can pay many
 * times over (`maySpeculate`, D21): then both start at once, and nothing is returned before the
 * hold is confirmed. A refused hold aborts the early upstream request and answers the refusal as
 * the strict order would (401, 402, 403, 429); a hold that cannot cover the worst case after all
 * falls back to the strict order, where D5 may lower the upstream's cap. Every failure after a
 * hold releases it.
 */
export async function holdAndDispatch<Body>(c: Context<AppEnv>, ask: Ask<Body>): Promise<HeldDispatch> {
  const { request } = ask;
  const { model, attempts } = ask.plan;
  // The hold covers the dearest attempt the request may reach (D33, D34).
  const { plan, price } = ask.plan.dearest;
  const fallbacks = [...new Set(attempts.map((attempt) => attempt.model.id).filter((id) => id !== model.id))];
  const caller = c.get('caller');
  const account = caller.account;
  const holdRequest = {
    keyHash: caller.keyHash,
    model: model.id,
    ...(fallbacks.length > 0 && { fallbackModels: fallbacks }),
    route: 'chat' as const,
    minMicros: plan.minMicros,
    maxMicros: plan.maxMicros,
    purpose: `chat:${model.id}`,
    requestId: c.get('requestId'),
    ttlMs: CHAT_HOLD_LEASE_MS,
    // The demo model is free: a per-account rate bounds it instead of a price.
    ...(attempts.some((attempt) => attempt.model.demo !== undefined) && { perMinute: DEMO_REQUESTS_PER_MINUTE }),
  };
  const refusal = (hold: Extract<Awaited<ReturnType<typeof account.authorizeHold>>, { ok: false }>) =>
    holdFailureError(hold, (available) => shortfallMessage(plan, available, price, model));
  // The client's own signal too: one that disconnects before the headers cancels the call (no retry).
  const clientSignal = c.req.raw.signal;
  const ctx = executionContext(c);
  // Reports and refreshes of route health run after the answer (`waitUntil`), never before it; a
  // session per send, so an early send abandoned after a refused hold gives back only its own probe.
  const health = () => routeHealth({ env: c.env, colo: c.req.raw.cf?.colo }, (work) => (ctx ? ctx.waitUntil(work) : void work));
  const send = (heldMicros: number, signal: AbortSignal) =>
    dispatchChat(request, attempts, {
      env: c.env,
      signal: AbortSignal.any([signal, clientSignal]),
      // D5 lowers the cap to what the hold pays for on each attempt's model, at its price.
      maxTokensFor: (attempt) => loweredMaxTokens(attempt.of.plan, heldMicros, attempt.of.price, request.n ?? 1) ?? attempt.of.maxTokens,
      guard: () => requestGuard(c),
      ...(ask.native && { native: ask.native }),
      health: health(),
    });

  const speculate = maySpeculate({
    enabled: c.env.SPECULATIVE_DISPATCH !== 'off',
    evidence: account.evidenceFor(caller.keyHash),
    worstCaseMicros: plan.maxMicros,
    // A fallback may be called before the hold is confirmed too: any route that bills aborted requests rules it out.
    route: attempts.find((attempt) => attempt.route.billsAbortedRequests)?.route ?? attempts[0]!.route,
    inFlight: account.earlyInFlight,
    now: Date.now(),
  });
  if (speculate) {
    const abort = new AbortController();
    const endEarly = account.beginEarly();
    // The full cap: the hold below is all or nothing, so it never lowers the cap after the fact.
    const early = send(plan.maxMicros, abort.signal);
    early.catch(() => {}); // observed below, or abandoned after a refusal
    let hold;
    try {
      hold = await account.authorizeHold({ ...holdRequest, minMicros: plan.maxMicros });
    } catch (err) {
      abort.abort();
      throw err;
    } finally {
      endEarly();
    }
    if (hold.ok) return afterHold(c, hold, early, abort, true, ask.failedRecord);
    abort.abort();
    if (!SHORTFALLS.has(hold.reason)) throw refusal(hold);
    // Less than the worst case is available after all (the balance or a key limit): the strict
    // order decides, where D5 may lower the upstream's cap to what is left.
  }
  const hold = await account.authorizeHold(holdRequest);
  if (!hold.ok) throw refusal(hold);
  const abort = new AbortController();
  return afterHold(c, hold, send(hold.amountMicros, abort.signal), abort, false, ask.failedRecord);
}

/** Once the hold is confirmed: keep its lease alive while the upstream works; release it if the upstream fails. */
async function afterHold(
  c: Context<AppEnv>,
  hold: Hold,
  pending: Promise<Dispatched>,
  abort: AbortController,
  speculative: boolean,
  failedRecord: (failed: DispatchFailed) => RequestRecord,
): Promise<HeldDispatch> {
  const caller = c.get('caller');
  // Renewed while this request runs: if the Worker dies, the hold is freed within the lease.
  const stopLease = keepHoldAlive(caller.account, hold.holdId);
  try {
    return { hold, dispatched: await pending, abortUpstream: () => abort.abort(), stopLease, speculative };
  } catch (err) {
    stopLease();
    await releaseHold(caller, hold.holdId, err instanceof DispatchFailed ? failedRecord(err) : undefined);
    throw err;
  }
}
