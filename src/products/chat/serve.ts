import type { Context } from 'hono';
import { releaseHold, settleHold } from '../../accounts/billed';
import { tokenCostMicros } from '../../billing/cost';
import { COST_HEADER, CREDITS_HEADER, SERVICE_MODEL_HEADER, SERVICE_PROVIDER_HEADER, UNSUPPORTED_HEADER, unsupportedHeaderValue } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { executionContext } from '../../execution-context';
import { REQUEST_ID_HEADER } from '../../middleware/request-id';
import { formatUsd } from '../../money';
import type { ResponseContext, Usage } from '../../providers/chat/types';
import { readAllIdle, upstreamIdleMs } from '../../providers/idle';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import { knowLocalModels } from '../local-models';
import { planChat, planOptionsOf } from './chat-plan';
import { DispatchFailed, type Dispatched } from './dispatch';
import type { ChatFormat } from './formats/format';
import { holdAndDispatch } from './hold-dispatch';
import { splitRouting, type ProviderPrefs } from './routing-schema';
import { chatEventStream, nativeSteps, translatedSteps } from './stream';
import { billableUsage, usageRecord } from './usage';

/**
 * Serves one chat request in the client's wire format (D30): plan it as the internal request
 * (`format.toChat`), hold its worst case in the account's Durable Object and call the upstream
 * (one retry on another route; at the same time as the hold when D21 allows,
 * `hold-dispatch.ts`), natively when the route's provider speaks the format, else through its
 * adapter; then answer in the format and settle the actual usage. Every failure before the answer
 * releases the hold.
 */
export async function serveChat<Body extends RoutedBody>(c: Context<AppEnv>, format: ChatFormat<Body>, routed: Body): Promise<Response> {
  const startedAt = Date.now();
  // `models` and `provider` steer routing (D34) and never reach an upstream, native ones included.
  const { body, routing } = splitRouting(routed);
  const request = format.toChat(body);
  // A local server's models are known once discovered (kept per isolate, `catalog/local.ts`).
  await knowLocalModels(c, [request.model, ...routing.models]);
  // The 400s, the attempts and the hold's bound (D33), before any money moves.
  const chatPlan = planChat(request, c.env, { uncarriedBytes: format.uncarriedBytes(body), routing, ...planOptionsOf(format) });
  const { model } = chatPlan;

  const caller = c.get('caller');
  const log = c.var.log;
  log.model = model.id;
  const requestId = c.get('requestId');
  // D26: what the request's lookup shows, stored in the same call that settles or releases its hold.
  const recordOf = (served: { model: string; provider: string } | undefined, attempts: RequestRecord['attempts'], usage?: Usage): RequestRecord => ({
    requestId,
    path: format.path,
    model: served?.model ?? model.id,
    provider: served?.provider ?? null,
    startedAt,
    durationMs: Date.now() - startedAt,
    streamed: request.stream === true,
    usage: usage ? usageRecord(usage) : {},
    ...(attempts && attempts.length > 1 && { attempts }),
  });
  const native = format.native && { wire: format.native, body, clientHeaders: c.req.raw.headers, clientQuery: new URL(c.req.url).search };
  let held;
  try {
    held = await holdAndDispatch(c, {
      request,
      plan: chatPlan,
      ...(native && { native }),
      failedRecord: (failed) => recordOf(failed.last && served(failed.last), failed.attempts),
    });
  } catch (err) {
    if (!(err instanceof DispatchFailed)) throw err;
    // What was called last names the error's answer too (D34).
    if (err.last) {
      log.model = err.last.model.id;
      log.provider = err.last.route.provider;
      c.header(SERVICE_MODEL_HEADER, err.last.model.id);
      c.header(SERVICE_PROVIDER_HEADER, err.last.route.provider);
    }
    throw err.error;
  }
  const { hold, dispatched, abortUpstream, stopLease, speculative } = held;
  const servedBy = served(dispatched.attempt);
  log.model = servedBy.model;
  log.provider = servedBy.provider;
  log.upstream_ms = dispatched.upstreamMs;
  log.decision_cache = speculative ? 'hit' : 'miss';
  // The answer names the model that served it (a fallback's when one did), as X-Service-Model does.
  const context: ResponseContext = { model: servedBy.model, requestId, created: Math.floor(Date.now() / 1000) };
  const prompt = dispatched.attempt.of.prompt;
  const record = (usage?: Usage): RequestRecord => recordOf(servedBy, dispatched.attempts, usage);
  const release = () => {
    stopLease();
    return releaseHold(caller, hold.holdId, record());
  };

  // The charge is durable before the answer that states it leaves (docs/operators/money.md, "What a client was told is what the ledger says"): a crash
  // can lose an answer in flight, never a charge a client was told about.
  const settle = (usage: Usage) => {
    stopLease();
    return settleHold(c.env, c.req.raw.cf?.colo, caller, hold, tokenCostMicros(usage, dispatched.route.price), record(usage));
  };
  const headers: Record<string, string> = {
    ...(dispatched.unsupported.length && { [UNSUPPORTED_HEADER]: unsupportedHeaderValue(dispatched.unsupported) }),
    [SERVICE_MODEL_HEADER]: servedBy.model,
    [SERVICE_PROVIDER_HEADER]: servedBy.provider,
  };
  const watch: BodyWatch = { idleMs: upstreamIdleMs(c.env), clientSignal: c.req.raw.signal, abortUpstream };

  if (request.stream) {
    const { body: stream, settled } = chatEventStream({
      upstream: dispatched.response.body ?? new ReadableStream(),
      steps: dispatched.adapter ? translatedSteps(dispatched.adapter.streamTranslator(context), format.encoder(context)) : nativeSteps(format.native!.streamReader(context)),
      promptEstimate: prompt.estimate,
      settle,
      release,
      abortUpstream,
      idleMs: watch.idleMs,
      clientSignal: watch.clientSignal,
      xService: ({ costMicros, balanceMicros }) => ({
        request_id: context.requestId,
        cost_usd: formatUsd(costMicros),
        credits_remaining_usd: formatUsd(balanceMicros),
      }),
    });
    // Keeps the Worker alive until the stream is settled, even after the client leaves.
    waitUntil(c, settled);
    // The request's log line waits for the stream's end, when its cost is known.
    log.until = settled.then((result) => {
      if (result) log.cost_usd = formatUsd(result.costMicros);
    });
    return new Response(stream, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', ...headers, [REQUEST_ID_HEADER]: context.requestId },
    });
  }

  const completed = finishAnswer(format, dispatched, context, prompt.estimate, settle, release, watch);
  // Keeps the Worker alive until the answer is read and its charge written, even if the client leaves.
  waitUntil(c, completed);
  const { answer, settled } = await completed;
  // A plain Response, its request id included: Hono's `c.body` would copy these headers twice.
  return new Response(answer, {
    headers: {
      ...headers,
      'Content-Type': 'application/json',
      ...(settled && { [COST_HEADER]: formatUsd(settled.costMicros), [CREDITS_HEADER]: formatUsd(settled.balanceMicros) }),
      [REQUEST_ID_HEADER]: context.requestId,
    },
  });
}

/** The members every chat format's body may carry for routing (D34). */
interface RoutedBody {
  models?: string[] | undefined;
  provider?: ProviderPrefs | undefined;
}

/** The model and provider of the attempt that served (or was called last). */
function served(attempt: Dispatched['attempt']): { model: string; provider: string } {
  return { model: attempt.model.id, provider: attempt.route.provider };
}

/** How a non-streamed answer's body is read: each read bounded, and the client watched. */
interface BodyWatch {
  /** The longest wait for the upstream's next byte (`UPSTREAM_IDLE_TIMEOUT_MS`). */
  idleMs: number;
  /** Aborts when the client disconnects. */
  clientSignal: AbortSignal;
  abortUpstream: () => void;
}

/** A whole upstream answer, read: what to bill and how to write it once billed. */
interface ReadAnswer {
  usage: Usage | null;
  text: () => string;
  write: (usage: Usage) => unknown;
}

function readAnswer<Body>(format: ChatFormat<Body>, dispatched: Dispatched, json: unknown, context: ResponseContext): ReadAnswer {
  if (!dispatched.adapter) {
    const native = format.native!.parseResponse(json, context);
    return { usage: native.usage, text: () => native.text, write: () => native.body };
  }
  const { completion, usage } = dispatched.adapter.parseResponse(json, context);
  return {
    usage,
    text: () => completion.choices.map((choice) => (choice.message.content ?? '') + JSON.stringify(choice.message.tool_calls ?? '')).join(''),
    write: (billed) => format.fromCompletion(completion, billed, context),
  };
}

/**
 * Reads a non-streamed answer and settles it. The answer is serialized while the settlement is on
 * its way, so only the round trip waits. If neither the account nor the journal acknowledges the
 * charge, the answer still leaves, without a stated cost (`settled` null): its hold then expires
 * uncharged, unless the settlement landed unacknowledged, and either way the client was charged
 * only for an answer it got. An upstream that sends nothing for `idleMs`, or a client that leaves
 * before the answer is read, cancels the upstream and releases the hold: no charge for an answer
 * the client was neither given nor told about (what the provider bills is the operator's loss).
 */
async function finishAnswer<Body>(
  format: ChatFormat<Body>,
  dispatched: Dispatched,
  context: ResponseContext,
  promptEstimate: number,
  settle: (usage: Usage) => Promise<{ costMicros: number; balanceMicros: number }>,
  release: () => Promise<unknown>,
  watch: BodyWatch,
) {
  const left = () => new GatewayError('invalid_request', 'The client disconnected before the answer was ready; nothing was charged.');
  let read: ReadAnswer;
  try {
    const bytes = await readAllIdle(dispatched.response.body, watch.idleMs, watch.clientSignal);
    read = readAnswer(format, dispatched, JSON.parse(new TextDecoder().decode(bytes)), context);
  } catch (err) {
    // Stalled, cut off, unreadable, or the client left: nothing usable, nothing charged.
    watch.abortUpstream();
    await release();
    if (watch.clientSignal.aborted) throw left();
    throw err instanceof GatewayError ? err : new GatewayError('provider_error', 'The provider answered with an unreadable body.');
  }
  if (watch.clientSignal.aborted) {
    await release();
    throw left();
  }
  const usage = billableUsage(read.usage, promptEstimate, read.text, true);
  const settling = settle(usage).catch((err: unknown) => {
    console.error('settlement acknowledged nowhere; the answer leaves without a cost', err);
    return null;
  });
  const answer = JSON.stringify(read.write(usage));
  return { answer, settled: await settling };
}

/** Keeps the Worker alive for `promise` after the response; in unit tests it is awaited anyway. */
function waitUntil(c: Context<AppEnv>, promise: Promise<unknown>): void {
  executionContext(c)?.waitUntil(promise.catch(() => {}));
}
