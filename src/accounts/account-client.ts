import type { AccountDurableObject } from '../../durable-objects/account/account';
import type { RequestRecord } from '../../durable-objects/account/requests';
import type { AccountOp, AccountOpReply, AccountOpResults, HoldRequest, RouteClass } from '../../durable-objects/account/types';
import { GatewayError } from '../errors';
import { holdOwner } from './hold-owner';

/** What the account last said of a key's headroom: chat's speculative dispatch (D21) reads it. */
export interface Evidence {
  /** When the Durable Object answered (ms). */
  at: number;
  /** What the key could still hold after that hold (the balance minus open holds, or its limit's headroom when lower), micro-dollars. */
  availableMicros: number;
}

/** The Worker's stub of an account's Durable Object. */
export type AccountStub = DurableObjectStub<AccountDurableObject>;

/**
 * How long a settlement or release may wait for company: the next request's hold usually comes
 * sooner and carries it in the same call. Reads through this client are never stale, because
 * they queue behind it.
 */
export const LAZY_MS = 5;
/** Settlements and releases are idempotent in the Durable Object, so a failed call is retried. */
const IDEMPOTENT_ATTEMPTS = 3;
/** Channels kept per isolate; idle ones beyond this are dropped. */
const MAX_CHANNELS = 1024;
/** Keys per account whose last granted hold is remembered (D21's evidence). */
const MAX_EVIDENCE = 256;
/** Round trips remembered per account: their minimum is the distance, whatever the load. */
const RTT_SAMPLES = 8;
/**
 * Round trips before the distance is told: a cold isolate's first calls also wait for the Durable
 * Object to start (and a loaded machine's), which would make a near account look far.
 */
export const RTT_SAMPLES_NEEDED = 4;

type OpName = AccountOp['op'];
type OpOf<K extends OpName> = Extract<AccountOp, { op: K }>;

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (err: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Where a call is sent from: the caller's own stub and request (a Worker may not do I/O for another request). */
interface Sender {
  stub: AccountStub;
  /** Keeps the call alive if the caller's client goes away; absent outside a request (tests). */
  waitUntil?: (promise: Promise<unknown>) => void;
}

interface Entry {
  op: AccountOp;
  sender: Sender;
  /** May be sent now; a lazy entry becomes due after LAZY_MS. */
  due: boolean;
  done: Deferred<AccountOpReply>;
  /** Resolved when this entry's caller should send the queue itself. */
  turn: Deferred<void>;
}

/**
 * Group commit for one account inside one isolate: at most one call to its Durable Object is in
 * flight, and everything that arrives meanwhile goes in the next, as one batch and one storage
 * commit. A lone request is sent at once, so it waits for nobody; under load, batches grow with
 * the load, and the account's Durable Object does a fraction of the calls.
 *
 * Each batch is sent by one of the requests it carries, from its own I/O context (a Worker may
 * not do I/O for another request), and the next batch by whichever waiting request is woken.
 */
class AccountChannel {
  /** The Durable Object's id, derived from the account id once per isolate. */
  id: DurableObjectId | undefined;
  #queue: Entry[] = [];
  #inFlight = false;
  /** The balance in the last answer, and the charges sent or queued since: for the credits header. */
  #balanceMicros = 0;
  #pendingChargeMicros = 0;
  /** Per key hash, the last hold this isolate saw granted: what speculative dispatch may trust (D21). */
  readonly evidence = new Map<string, Evidence>();
  /** Requests of this account sent upstream before their hold was confirmed, now. */
  earlyInFlight = 0;
  /** The last round trips to the Durable Object (ms), newest last. */
  #roundTrips: number[] = [];

  get idle(): boolean {
    return !this.#inFlight && this.#queue.length === 0;
  }

  /** The balance once every charge this isolate has queued is applied. */
  get balanceAfterPendingMicros(): number {
    return this.#balanceMicros - this.#pendingChargeMicros;
  }

  /** A charge sent through the settlement journal: counted in this isolate's view of the balance until the next answer. */
  noteJournaledCharge(micros: number): void {
    this.#balanceMicros -= micros;
  }

  /** The shortest of the recent round trips (ms): how far away the Durable Object is; undefined before RTT_SAMPLES_NEEDED. */
  get roundTripMs(): number | undefined {
    return this.#roundTrips.length >= RTT_SAMPLES_NEEDED ? Math.min(...this.#roundTrips) : undefined;
  }

  async call<K extends OpName>(sender: Sender, op: OpOf<K>, lazy = false): Promise<AccountOpResults[K]> {
    const entry: Entry = { op, sender, due: !lazy, done: deferred(), turn: deferred() };
    this.#pendingChargeMicros += chargeOf(entry);
    this.#queue.push(entry);
    const reply = await this.#await(entry, lazy);
    if (reply !== null && 'error' in reply) throw new Error(`account call failed: ${reply.error}`);
    return reply as AccountOpResults[K];
  }

  async #await(entry: Entry, lazy: boolean): Promise<AccountOpReply> {
    const timer = lazy
      ? setTimeout(() => {
          entry.due = true;
          if (!this.#inFlight) entry.turn.resolve();
        }, LAZY_MS)
      : undefined;
    try {
      if (!lazy && !this.#inFlight) await this.#send(entry.sender);
      for (;;) {
        const woken = await Promise.race([entry.done.promise.then(() => false, () => false), entry.turn.promise.then(() => true)]);
        if (!woken) return await entry.done.promise;
        entry.turn = deferred();
        // Another caller may have sent the queue (this entry with it) between the wake-up and now.
        if (!this.#inFlight && this.#queue.includes(entry)) await this.#send(entry.sender);
      }
    } finally {
      clearTimeout(timer);
    }
  }

  async #send(sender: Sender): Promise<void> {
    this.#inFlight = true;
    const batch = this.#queue.splice(0);
    const charges = batch.reduce((sum, entry) => sum + chargeOf(entry), 0);
    try {
      const sentAt = Date.now();
      const call = sender.stub.apply(batch.map((entry) => entry.op));
      // The batch carries other requests' calls: it must finish even if this one's client leaves.
      sender.waitUntil?.(call.catch(() => {}));
      const reply = await call;
      this.#roundTrips.push(Date.now() - sentAt);
      if (this.#roundTrips.length > RTT_SAMPLES) this.#roundTrips.shift();
      this.#balanceMicros = reply.balanceMicros;
      this.#pendingChargeMicros -= charges;
      batch.forEach((entry, i) => entry.done.resolve(i < reply.results.length ? reply.results[i]! : { error: 'no answer' }));
    } catch (err) {
      this.#pendingChargeMicros -= charges;
      for (const entry of batch) entry.done.reject(err);
    } finally {
      this.#inFlight = false;
      this.#queue.find((entry) => entry.due)?.turn.resolve();
    }
  }
}

/**
 * A key check or hold that the account's Durable Object could not answer: the spec's 503, to be
 * retried shortly. Nothing was held (a hold that was placed but whose answer was lost expires
 * with its lease).
 */
function spendCheckUnavailable(err: unknown): never {
  console.error('account call failed', err);
  throw new GatewayError('spend_check_unavailable', 'The balance check is unavailable right now; retry shortly.', { retryAfter: 1 });
}

const chargeOf = (entry: Entry) => (entry.op.op === 'settle' ? entry.op.chargeMicros : 0);

const channels = new Map<string, AccountChannel>();

function channelOf(accountId: string): AccountChannel {
  let channel = channels.get(accountId);
  if (!channel) {
    if (channels.size >= MAX_CHANNELS) {
      for (const [id, other] of channels) if (other.idle) channels.delete(id);
    }
    channel = new AccountChannel();
    channels.set(accountId, channel);
  }
  return channel;
}

/**
 * The Worker's handle on one account's Durable Object for one request: the same calls as the
 * object's methods, batched per account through its channel.
 */
export class AccountClient {
  readonly #sender: Sender;
  readonly #channel: AccountChannel;
  readonly #env: Env;
  readonly #accountId: string;
  readonly #ctx: Pick<ExecutionContext, 'waitUntil'> | undefined;
  /** The id of the key this request's account verified (a granted hold or authentication), for its log line. */
  keyId: string | undefined;
  /** The client of the last other account `forHold` named (a member's organization), kept for this request's later calls. */
  #other: { accountId: string; client: AccountClient } | undefined;

  constructor(env: Env, accountId: string, ctx?: Pick<ExecutionContext, 'waitUntil'>) {
    const channel = channelOf(accountId);
    channel.id ??= env.ACCOUNT.idFromName(accountId);
    this.#sender = { stub: env.ACCOUNT.get(channel.id), waitUntil: ctx ? (promise) => ctx.waitUntil(promise) : undefined };
    this.#channel = channel;
    this.#env = env;
    this.#accountId = accountId;
    this.#ctx = ctx;
  }

  /**
   * The client of the account whose Durable Object holds `holdId`: this one, or for a member's
   * hold its organization's (D29, `holdOwner`). Settling, releasing and renewing go through it,
   * so no caller can send an organization's hold to the member.
   */
  forHold(holdId: string): AccountClient {
    const owner = holdOwner(this.#accountId, holdId);
    if (owner === this.#accountId) return this;
    if (this.#other?.accountId !== owner) this.#other = { accountId: owner, client: new AccountClient(this.#env, owner, this.#ctx) };
    return this.#other.client;
  }

  /**
   * Authorizes a key and holds money. Remembers the answer per key as D21's evidence: a granted
   * chat hold and what it left available, or, after any refusal, nothing. Only a chat hold counts:
   * a hold granted on another route says nothing of whether the key may chat (D27
   * `allowed_routes`), and a key refused chat must not get upstream calls sent early. 503 `spend_check_unavailable`
   * when the account's Durable Object cannot answer (overloaded, unreachable).
   */
  async authorizeHold(request: HoldRequest) {
    const result = await this.#channel.call(this.#sender, { op: 'hold', request }).catch(spendCheckUnavailable);
    if (result.ok) this.keyId = result.keyId;
    const { evidence } = this.#channel;
    if (!result.ok || request.route === 'chat') evidence.delete(request.keyHash);
    if (result.ok && request.route === 'chat') {
      if (evidence.size >= MAX_EVIDENCE) evidence.delete(evidence.keys().next().value!);
      evidence.set(request.keyHash, { at: Date.now(), availableMicros: result.availableMicros });
    }
    return result;
  }

  /** This isolate's last granted hold for the key, if any (D21). */
  evidenceFor(keyHash: string): Evidence | undefined {
    return this.#channel.evidence.get(keyHash);
  }

  /** Requests of this account in flight before their hold was confirmed. */
  get earlyInFlight(): number {
    return this.#channel.earlyInFlight;
  }

  /** Counts a request sent before its hold is confirmed; the returned function ends it (once). */
  beginEarly(): () => void {
    this.#channel.earlyInFlight++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#channel.earlyInFlight--;
    };
  }

  /**
   * Charges a hold. `lazy` lets the charge wait a few milliseconds to ride with the next call
   * (see LAZY_MS): for a caller that does not need the resulting balance before it answers.
   */
  settle(holdId: string, chargeMicros: number, options: { lazy?: boolean; record?: RequestRecord } = {}): Promise<AccountOpResults['settle']> {
    const owner = this.forHold(holdId);
    if (owner !== this) return owner.settle(holdId, chargeMicros, options);
    const op = { op: 'settle', holdId, chargeMicros, ...(options.record ? { record: options.record } : {}) } as const;
    return this.#retried(() => this.#channel.call(this.#sender, op, options.lazy));
  }

  /** Frees a hold; `record` (D26) is stored as a failed request, nothing charged. */
  release(holdId: string, record?: RequestRecord): Promise<AccountOpResults['release']> {
    const owner = this.forHold(holdId);
    if (owner !== this) return owner.release(holdId, record);
    return this.#retried(() => this.#channel.call(this.#sender, { op: 'release', holdId, ...(record ? { record } : {}) }, true));
  }

  /** D26: the account's record of a request, for a valid key of it. */
  lookupRequest(keyHash: string, requestId: string) {
    return this.#channel.call(this.#sender, { op: 'request', keyHash, requestId }).catch(spendCheckUnavailable);
  }

  /** Renews a hold's lease; lazy, as a renewal needs no answer before it matters. */
  extendHold(holdId: string, ttlMs: number): Promise<AccountOpResults['extend']> {
    const owner = this.forHold(holdId);
    if (owner !== this) return owner.extendHold(holdId, ttlMs);
    return this.#channel.call(this.#sender, { op: 'extend', holdId, ttlMs }, true);
  }

  /** Checks a key; `route` names the route class for a call that is not a free read (D27 `allowed_routes`). */
  async authenticate(keyHash: string, route?: RouteClass) {
    const result = await this.#channel.call(this.#sender, { op: 'authenticate', keyHash, ...(route ? { route } : {}) }).catch(spendCheckUnavailable);
    if (result.ok) this.keyId = result.keyId;
    return result;
  }

  /** What the key could hold now (D25), without holding it; checks the key, model and route class as a hold would. */
  spendable(keyHash: string, model: string | undefined, route: RouteClass) {
    return this.#channel.call(this.#sender, { op: 'spendable', keyHash, model, route }).catch(spendCheckUnavailable);
  }

  accountForKey(keyHash: string, route?: RouteClass) {
    return this.#channel.call(this.#sender, { op: 'account', keyHash, ...(route ? { route } : {}) }).catch(spendCheckUnavailable);
  }

  /** The balance once this isolate's queued charges are applied (exact when nothing else runs). */
  get balanceAfterPendingMicros(): number {
    return this.#channel.balanceAfterPendingMicros;
  }

  /** Counts a charge settled through the settlement journal in this isolate's view of the balance (`src/accounts/settlement.ts`). */
  noteJournaledCharge(micros: number): void {
    this.#channel.noteJournaledCharge(micros);
  }

  /** How far away the account's Durable Object is: the shortest recent round trip (ms), undefined before RTT_SAMPLES_NEEDED of them. */
  get roundTripMs(): number | undefined {
    return this.#channel.roundTripMs;
  }

  /** The stub for calls outside the batch, once everything this isolate queued before is applied. */
  async direct(): Promise<AccountStub> {
    if (!this.#channel.idle) await this.#channel.call(this.#sender, { op: 'sync' });
    return this.#sender.stub;
  }

  async #retried<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (attempt >= IDEMPOTENT_ATTEMPTS) throw err;
      }
    }
  }
}
