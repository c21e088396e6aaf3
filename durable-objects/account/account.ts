import { DurableObject } from 'cloudflare:workers';
import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { newKeyId } from '../../src/accounts/credentials';
import { chargeSavedCard } from '../../src/funding/off-session';
import { stripeRail } from '../../src/funding/stripe';
import { ExpiryAlarm } from './alarm';
import { CallCounts, type CallCountsView } from './call-counts';
import { ClaimState, type HumanHolder, type OpenClaimResult } from './claim';
import { describePatch, Keys, type KeyPatch, type NewKey } from './keys';
import { Ledger } from './ledger';
import { RequestRecords, type RequestRecord } from './requests';
import { AccountMemory } from './memory';
import migrations from './migrations/migrations.js';
import * as schema from './schema';
import { account, apiKeys } from './schema';
import { SpendCounters } from './spend';
import { SubKeys, type KeyWithSpend, type SubKeyRefusal, type SubKeyRequest } from './sub-keys';
import { Suspension, type CardReversal, type CardRestoration, type ReversalResult, type SuspensionView } from './suspension';
import { AutoTopUp, dailyCapOf, type SavedCard, type TopUpRefusal, type TopUpRule, type TopUpView } from './top-up';
import { Usage, type ChargeFilter, type ChargePage, type CreditEntry, type DailySpendRow } from './usage';
import type {
  AccountOp,
  AccountOpReply,
  AccountSnapshot,
  AuthFailure,
  AuthorizedKey,
  BatchReply,
  CreditRequest,
  ExtendResult,
  Hold,
  HoldFailure,
  HoldRequest,
  KeyRecord,
  LedgerEntry,
  LedgerPage,
  OpenHoldView,
  ReleaseResult,
  Result,
  RouteClass,
  SettleResult,
  SweepOutcome,
} from './types';

export { MAX_OPEN_HOLDS } from './ledger';

/** Card funding allowed before a human claims the account (spec "Limits"). */
const UNCLAIMED_CARD_CAP_MICROS = 500_000_000;

export interface NewAccount {
  accountId: string;
  claimTokenHash: string;
  key: { hash: string; hint: string; name: string };
  expiresAt: number;
  /** One-time starter credit, 0 for none. */
  welcomeMicros: number;
  /** The fund link's capability token (D22). */
  fundToken: string;
}

export interface AdminView {
  account: AccountSnapshot;
  keys: KeyRecord[];
  /** The newest ledger rows; `ledgerPage` reads the rest. */
  ledger: LedgerEntry[];
  holds: OpenHoldView[];
  /** Holds released by their deadline and never charged: requests whose Worker died. */
  expiredUnsettledHolds: number;
  /** The request path's calls that reached this object since it started (in memory). */
  calls: CallCountsView;
}

/**
 * One per account: the only place its balance, holds, ledger, keys and spend counters change.
 * Every public method runs synchronously against SQLite, so calls are applied one at a time and a
 * burst of concurrent holds can never spend the same micro-dollar twice.
 *
 * The work is done by plain modules over this object's storage: `Ledger` (money), `Keys` (key
 * checks and changes), `SpendCounters` (per-key limits), `AutoTopUp` and `ExpiryAlarm`. The hot path
 * (authorize, hold, settle, release) reads the account row, the open holds and the keys it has
 * seen from memory (`AccountMemory` and the keys' cache) — this object is their only writer — and
 * writes with constant SQL (`statements.ts`). Memory changes only after the SQLite transaction has
 * committed.
 */
export class AccountDurableObject extends DurableObject<Env> {
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  readonly #memory = new AccountMemory();
  readonly #alarm: ExpiryAlarm;
  readonly #keys: Keys;
  readonly #ledger: Ledger;
  readonly #claim: ClaimState;
  readonly #topUp: AutoTopUp;
  readonly #usage: Usage;
  readonly #suspension: Suspension;
  readonly #subKeys: SubKeys;
  readonly #requests: RequestRecords;
  readonly #calls = new CallCounts();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage, { schema });
    this.#alarm = new ExpiryAlarm(ctx.storage);
    const spend = new SpendCounters(ctx.storage, this.#memory.holds);
    this.#keys = new Keys(ctx.storage, this.#db, this.#memory, spend);
    this.#ledger = new Ledger(ctx.storage, this.#db, this.#memory, spend, this.#alarm);
    this.#claim = new ClaimState(ctx.storage, this.#memory);
    this.#topUp = new AutoTopUp(this.#db, this.#memory, this.#alarm, this.#ledger, (charge) => chargeSavedCard(stripeRail(this.env), charge), dailyCapOf(env));
    this.#usage = new Usage(ctx.storage);
    this.#suspension = new Suspension(ctx.storage, this.#memory, this.#ledger);
    this.#subKeys = new SubKeys(ctx.storage, this.#keys);
    this.#requests = new RequestRecords(ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      const [table] = ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'account'").toArray();
      if (!table) return;
      await migrate(this.#db, migrations);
      this.#memory.load(ctx.storage);
      await this.#alarm.load();
      this.#topUp.load();
      await this.#alarm.schedule();
    });
  }

  async create(input: NewAccount): Promise<AccountSnapshot> {
    if (this.#memory.account) throw new Error('account already exists');
    await migrate(this.#db, migrations);
    const now = Date.now();
    this.#db.transaction((tx) => {
      tx.insert(account)
        .values({ id: input.accountId, createdAt: now, claimTokenHash: input.claimTokenHash, expiresAt: input.expiresAt, fundToken: input.fundToken })
        .run();
      tx.insert(apiKeys).values({ id: newKeyId(input.accountId), createdAt: now, ...input.key }).run();
    });
    this.#memory.load(this.ctx.storage);
    this.#topUp.load();
    if (input.welcomeMicros > 0) {
      await this.credit({ amountMicros: input.welcomeMicros, source: 'welcome', idempotencyKey: `welcome:${input.accountId}`, note: 'welcome credit' });
    }
    return this.snapshot();
  }

  /** Checks a key for routes that spend nothing (on the route class `route` when named). */
  async authenticate(keyHash: string, route?: RouteClass): Promise<Result<AuthorizedKey, AuthFailure>> {
    return this.#authenticate(keyHash, route, Date.now());
  }

  /** The account as its owner sees it, for a valid key; one round trip for `GET /agent/account`. */
  async accountForKey(keyHash: string, route?: RouteClass): Promise<Result<{ account: AccountSnapshot }, AuthFailure>> {
    return this.#accountForKey(keyHash, route, Date.now());
  }

  /**
   * Authorizes a key and sets money aside in one step, the only call a billed route makes before
   * its upstream. The hold is `maxMicros` when the balance and the key's limits allow it, else the
   * most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  async authorizeHold(request: HoldRequest): Promise<Result<Hold, HoldFailure>> {
    this.#calls.direct('authorizeHold');
    const result = this.#hold(request, Date.now());
    await this.#alarm.schedule();
    return result;
  }

  /**
   * Charges the actual cost of a hold and frees the rest. Idempotent: a repeated settlement of
   * the same hold returns the first result and charges nothing more. A hold the alarm already
   * expired is still charged, because the upstream did the work.
   */
  async settle(holdId: string, chargeMicros: number, record?: RequestRecord): Promise<SettleResult> {
    this.#calls.direct('settle');
    const result = this.#settle(holdId, chargeMicros, Date.now(), record);
    await this.#alarm.schedule();
    return result;
  }

  /** Frees a hold without charging (the upstream failed). Idempotent; a settled hold stays settled. */
  async release(holdId: string, record?: RequestRecord): Promise<ReleaseResult> {
    this.#calls.direct('release');
    return this.#release(holdId, Date.now(), record);
  }

  /**
   * An operator frees an orphaned hold, with the reason in its ledger row; a late settlement of
   * it is still charged. Null when the account does not exist or never had this hold.
   */
  async releaseByOperator(holdId: string, reason: string): Promise<ReleaseResult | null> {
    if (!this.#memory.account) return null;
    if (!this.#ledger.knows(holdId)) return null;
    return this.#ledger.release(holdId, Date.now(), reason);
  }

  /** Renews a hold's lease: it now expires `ttlMs` from now, unless it was already due later. */
  async extendHold(holdId: string, ttlMs: number): Promise<ExtendResult> {
    this.#calls.direct('extendHold');
    return this.#ledger.extend(holdId, ttlMs, Date.now());
  }

  /**
   * Applies a batch of calls in order, as one storage commit: what a Worker sends when several of
   * its requests reach this account at once (`src/accounts/account-client.ts`). One call's failure
   * is that call's answer; the others still apply.
   */
  async apply(ops: AccountOp[]): Promise<BatchReply> {
    this.#calls.batch(ops);
    const now = Date.now();
    const results = ops.map((op): AccountOpReply => {
      try {
        return this.#applyOne(op, now);
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    });
    await this.#alarm.schedule();
    return { results, balanceMicros: this.#memory.account?.balance_micros ?? 0 };
  }

  /** Adds (or, for a negative operator correction, removes) money. Idempotent by key; null without an account. */
  async credit(request: CreditRequest): Promise<{ applied: boolean; balanceMicros: number } | null> {
    if (!this.#memory.account) return null;
    return this.#ledger.credit(request, Date.now());
  }

  /** An operator's debit with its reason: refused beyond the available balance; idempotent by key. Null without an account. */
  async debit(request: CreditRequest): Promise<Result<{ applied: boolean; balanceMicros: number }, { reason: 'exceeds_available'; availableMicros: number }> | null> {
    if (!this.#memory.account) return null;
    return this.#ledger.debit(request, Date.now());
  }

  async snapshot(): Promise<AccountSnapshot> {
    return this.#snapshot();
  }

  /** The account for a page that knows it by a capability (the fund page); null when there is none. */
  async view(): Promise<AccountSnapshot | null> {
    return this.#memory.account ? this.#snapshot() : null;
  }

  /** The account, when `tokenHash` is its claim token (constant-time); null otherwise or without an account. */
  async accountForClaimToken(tokenHash: string): Promise<AccountSnapshot | null> {
    return this.#claim.verify(tokenHash) ? this.#snapshot() : null;
  }

  /** A human has claimed the account: it never expires and the card caps are lifted. Null without an account. */
  async markClaimed(now: number): Promise<AccountSnapshot | null> {
    return this.#claim.markClaimed(now) ? this.#snapshot() : null;
  }

  /** Opens claim `claimId` (it alone can then be approved); refused while a human holds the account or past the hourly limit. */
  async openClaim(claimId: string, now: number): Promise<OpenClaimResult> {
    return this.#claim.open(claimId, now);
  }

  /** Approves claim `claimId` if it is still current and nobody holds the account: atomically, its human then holds it. */
  async approveClaim(claimId: string, now: number): Promise<boolean> {
    return this.#claim.approve(claimId, now);
  }

  /** Who holds the account (the approved claim whose passkeys and sessions work); null without an account. */
  async humanHolder(): Promise<HumanHolder | null> {
    return this.#claim.holder();
  }

  /** Operator reset: the human's passkeys and sessions stop working at once; the account stays claimed. False without an account. */
  async resetHuman(): Promise<boolean> {
    return this.#claim.resetHuman();
  }

  /** Everything an operator looks at; null when the account does not exist. */
  async adminView(ledgerLimit = 50): Promise<AdminView | null> {
    if (!this.#memory.account) return null;
    return {
      account: this.#snapshot(),
      keys: await this.keys(),
      ledger: this.#ledger.page(ledgerLimit).entries,
      holds: this.#memory.holds.list().map((hold) => ({
        holdId: hold.id,
        keyId: hold.key_id,
        amountMicros: hold.amount_micros,
        purpose: hold.purpose,
        requestId: hold.request_id,
        createdAt: hold.created_at,
        expiresAt: hold.expires_at,
      })),
      expiredUnsettledHolds: this.#ledger.expiredUnsettled(),
      calls: this.#calls.view(),
    };
  }

  /** A page of the whole ledger, newest first, before the row `before`; null without an account. */
  async ledgerPage(limit: number, before?: number): Promise<LedgerPage | null> {
    if (!this.#memory.account) return null;
    return this.#ledger.page(limit, before);
  }

  /** The dashboard's ledger: charges of one key or model (or all), newest first; null without an account. */
  async chargePage(filter: ChargeFilter, limit: number, before?: number): Promise<ChargePage | null> {
    if (!this.#memory.account) return null;
    return this.#usage.charges(filter, limit, before);
  }

  /** Charges since `since` (ms) per UTC day and purpose, for the usage chart; null without an account. */
  async dailySpend(since: number): Promise<DailySpendRow[] | null> {
    if (!this.#memory.account) return null;
    return this.#usage.dailySpend(since);
  }

  /** The newest credits (cards, USDC, operator, welcome); null without an account. */
  async credits(limit: number): Promise<CreditEntry[] | null> {
    if (!this.#memory.account) return null;
    return this.#usage.credits(limit);
  }

  /** Adds a key; null when the account does not exist. By the operator, with an `audit` ledger row in the same transaction. */
  async createKey(input: NewKey, by?: 'operator'): Promise<KeyRecord | null> {
    if (!this.#memory.account) return null;
    const now = Date.now();
    return this.ctx.storage.transactionSync(() => {
      const key = this.#keys.create(input, now);
      if (by) this.#ledger.auditKey(key.id, `key created by the operator: ${key.name}`, `operator:key:${key.id}`, now);
      return key;
    });
  }

  /** Changes a key's guardrails or revokes it; null when there is no such key. By the operator, with an `audit` ledger row naming what changed. */
  async updateKey(keyId: string, patch: KeyPatch, by?: 'operator'): Promise<KeyRecord | null> {
    if (!this.#memory.account) return null;
    const now = Date.now();
    return this.ctx.storage.transactionSync(() => {
      const key = this.#keys.update(keyId, patch, now);
      if (key && by) this.#ledger.auditKey(key.id, `key changed by the operator: ${describePatch(patch)}`, `operator:key:${key.id}:${crypto.randomUUID()}`, now);
      return key;
    });
  }

  async keys(): Promise<KeyRecord[]> {
    return this.#keys.list();
  }

  /** D27 `POST /agent/keys`: a key of the account mints a sub-key (rules in `sub-keys.ts`). */
  async mintSubKey(callerHash: string, request: SubKeyRequest): Promise<Result<{ key: KeyRecord }, SubKeyRefusal>> {
    return this.#subKeys.mint(callerHash, request, Date.now());
  }

  /** D27 `GET /agent/keys`: the account's keys with their spend; a sub-key sees only itself. */
  async keysForKey(callerHash: string): Promise<Result<{ keys: KeyWithSpend[] }, AuthFailure>> {
    return this.#subKeys.list(callerHash, Date.now());
  }

  /** D27 `DELETE /agent/keys/{key_id}`: revoked from the next request on, with the sub-keys it minted. */
  async revokeKeyForKey(callerHash: string, keyId: string): Promise<Result<{ key: KeyRecord }, SubKeyRefusal>> {
    return this.#subKeys.revoke(callerHash, keyId, Date.now());
  }

  async ledgerEntries(limit = 50): Promise<LedgerEntry[]> {
    return this.#ledger.page(limit).entries;
  }

  /** The sweep's last word: deletes everything unless the account was funded or claimed meanwhile. */
  async deleteIfExpired(now: number): Promise<SweepOutcome> {
    const row = this.#memory.account;
    if (row && (row.funded_at !== null || row.claimed_at !== null || row.expires_at === null || row.expires_at > now)) {
      return { deleted: false, fundedAt: row.funded_at, claimedAt: row.claimed_at, expiresAt: row.expires_at };
    }
    await this.#alarm.delete();
    await this.ctx.storage.deleteAll();
    this.#memory.clear();
    this.#topUp.clear();
    this.#keys.forgetCached();
    return { deleted: true };
  }

  /**
   * Releases holds whose caller never settled them (a crashed Worker), charges a due auto top-up,
   * then waits for the next of either.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#alarm.fired();
    this.#ledger.expire(now);
    this.#alarm.wakeBy(this.#memory.holds.soonestExpiry());
    await this.#topUp.runDue(now);
    await this.#alarm.schedule();
  }

  /** D28: an operator suspends the account (every key refused, funding still works). Null without an account. */
  async suspend(reason: string, idempotencyKey: string): Promise<SuspensionView | null> {
    return this.#memory.account ? this.#suspension.suspend(reason, idempotencyKey, 'operator', Date.now()) : null;
  }

  /** An operator lifts a suspension; the state after it (null: not suspended). Undefined without an account. */
  async unsuspend(reason: string, idempotencyKey: string): Promise<{ suspended: SuspensionView | null } | undefined> {
    if (!this.#memory.account) return undefined;
    this.#suspension.unsuspend(reason, idempotencyKey, 'operator', Date.now());
    return { suspended: this.#suspension.view() };
  }

  /** Takes back a refunded or disputed card payment once per key; suspends when the balance cannot cover it. Null without an account. */
  async reverseCardPayment(reversal: CardReversal): Promise<ReversalResult | null> {
    return this.#memory.account ? this.#suspension.reverse(reversal, Date.now()) : null;
  }

  /** Credits back a reversal that did not stand (a failed refund, a dispute won), once. Null without an account. */
  async restoreCardPayment(restoration: CardRestoration): Promise<{ applied: boolean; balanceMicros: number } | null> {
    return this.#memory.account ? this.#suspension.restore(restoration, Date.now()) : null;
  }

  /** Auto top-up as the dashboard shows it; null without an account. */
  async topUpView(): Promise<TopUpView | null> {
    return this.#memory.account ? this.#topUp.view() : null;
  }

  /** Turns auto top-up on with `rule` (or changes it); refused without a saved card. Null without an account. */
  async enableTopUp(rule: TopUpRule): Promise<Result<{ view: TopUpView }, TopUpRefusal> | null> {
    return this.#memory.account ? this.#topUp.enable(rule, Date.now()) : null;
  }

  async disableTopUp(): Promise<TopUpView | null> {
    return this.#memory.account ? this.#topUp.disable(Date.now()) : null;
  }

  /** Saves the card of a completed Checkout for auto top-up. Null without an account. */
  async saveTopUpCard(card: SavedCard): Promise<TopUpView | null> {
    return this.#memory.account ? this.#topUp.saveCard(card, Date.now()) : null;
  }

  #applyOne(op: AccountOp, now: number): AccountOpReply {
    switch (op.op) {
      case 'hold':
        return this.#hold(op.request, now);
      case 'settle':
        return this.#settle(op.holdId, op.chargeMicros, now, op.record);
      case 'release':
        return this.#release(op.holdId, now, op.record);
      case 'extend':
        return this.#ledger.extend(op.holdId, op.ttlMs, now);
      case 'authenticate':
        return this.#authenticate(op.keyHash, op.route, now);
      case 'account':
        return this.#accountForKey(op.keyHash, op.route, now);
      case 'spendable': {
        const checked = this.#keys.check(op.keyHash, op.model, now, op.route);
        return checked.ok ? { ok: true, ...this.#ledger.spendable(checked.key, now) } : checked;
      }
      case 'request': {
        const checked = this.#keys.check(op.keyHash, undefined, now);
        if (!checked.ok) return checked;
        const request = this.#requests.find(op.requestId);
        return request ? { ok: true, request } : { ok: false, reason: 'not_found' };
      }
      case 'sync':
        return null;
      default:
        throw new Error(`unknown call ${(op as { op: unknown }).op}`);
    }
  }

  /** A settlement that lowered the balance may start an auto top-up (charged by the alarm). */
  #settle(holdId: string, chargeMicros: number, now: number, record?: RequestRecord): SettleResult {
    const requestId = record && !record.requestId ? (this.#memory.holds.get(holdId)?.request_id ?? null) : null;
    const result = this.#ledger.settle(holdId, chargeMicros, now);
    if (record && result.ok) this.#requests.settled(record, requestId, result.chargedMicros, now);
    if (!result.ok || !result.applied || result.chargedMicros <= 0) return result;
    try {
      this.#topUp.afterCharge(result.balanceMicros, now);
    } catch (err) {
      // The charge is written; a top-up that could not start must not turn it into an error.
      console.error('auto top-up not started', err);
    }
    return result;
  }

  /** Frees a hold; its request is recorded as failed, nothing charged (D26). */
  #release(holdId: string, now: number, record?: RequestRecord): ReleaseResult {
    const requestId = record && !record.requestId ? (this.#memory.holds.get(holdId)?.request_id ?? null) : null;
    const result = this.#ledger.release(holdId, now);
    if (record && this.#ledger.knows(holdId)) this.#requests.released(record, requestId, now);
    return result;
  }

  /** D26: deletes up to `limit` request records past their retention; for tests and operators. */
  async pruneRequests(now: number, limit?: number): Promise<number> {
    return this.#requests.prune(now, limit);
  }

  #hold(request: HoldRequest, now: number): Result<Hold, HoldFailure> {
    const checked = this.#keys.check(request.keyHash, request.model, now, request.route ?? 'unclassified');
    return checked.ok ? this.#ledger.hold(checked.key, request, now) : checked;
  }

  #authenticate(keyHash: string, route: RouteClass | undefined, now: number): Result<AuthorizedKey, AuthFailure> {
    const checked = this.#keys.check(keyHash, undefined, now, route);
    return checked.ok ? { ok: true, accountId: this.#memory.account!.id, keyId: checked.key.id } : checked;
  }

  #accountForKey(keyHash: string, route: RouteClass | undefined, now: number): Result<{ account: AccountSnapshot }, AuthFailure> {
    const checked = this.#keys.check(keyHash, undefined, now, route);
    return checked.ok ? { ok: true, account: this.#snapshot() } : checked;
  }

  #snapshot(): AccountSnapshot {
    const row = this.#memory.account;
    if (!row) throw new Error('no such account');
    return {
      accountId: row.id,
      createdAt: row.created_at,
      balanceMicros: row.balance_micros,
      heldMicros: this.#memory.holds.heldMicros,
      claimed: row.claimed_at !== null,
      funded: row.funded_at !== null,
      expiresAt: row.expires_at,
      unclaimedFundingRemainingMicros: row.claimed_at === null ? Math.max(0, UNCLAIMED_CARD_CAP_MICROS - row.card_funded_micros) : null,
      fundToken: row.fund_token,
      suspended: this.#suspension.view(),
    };
  }
}
