import { DurableObject } from 'cloudflare:workers';
import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { chargeSavedCard } from '../../src/funding/off-session';
import { stripeRail } from '../../src/funding/stripe';
import { ExpiryAlarm } from './alarm';
import { HoldRouting } from './hold-routing';
import { MemberHoldPool } from './org-hold-pool';
import { organizationPeers } from './org-peer';
import { CallCounts } from './call-counts';
import { ClaimState } from './claim';
import { Keys } from './keys';
import { KeyTree } from './key-tree';
import { Ledger } from './ledger';
import { Membership } from './membership';
import { Organization } from './organization';
import { OrgOwnership } from './org-owner';
import { OrgUsage } from './org-usage';
import { RequestRecords, type RecordOwner, type RequestRecord } from './requests';
import { run, SQL } from './statements';
import { AccountMemory } from './memory';
import migrations from './migrations/migrations.js';
import * as schema from './schema';
import { SpendCounters } from './spend';
import { SubKeys } from './sub-keys';
import { Suspension } from './suspension';
import { AutoTopUp, dailyCapOf } from './top-up';
import { Usage } from './usage';
import type { AccountOp, AccountOpReply, AccountSnapshot, AuthenticatedKey, AuthFailure, BatchReply, CreditRequest, ExtendResult } from './types';
import type { Hold, HoldFailure, HoldRequest, ReleaseResult, Result, RouteClass, SettleResult } from './types';

export { MAX_OPEN_HOLDS } from './ledger';

/** Card funding allowed before a human claims the account (spec "Limits"). */
const UNCLAIMED_CARD_CAP_MICROS = 500_000_000;

/** This object's parts, for what `AccountManagement` and `AccountDurableObject` add around the money path. */
export interface AccountParts {
  memory: AccountMemory;
  alarm: ExpiryAlarm;
  calls: CallCounts;
  claim: ClaimState;
  keys: Keys;
  requests: RequestRecords;
  suspension: Suspension;
  topUp: AutoTopUp;
  organization: Organization;
  membership: Membership;
  pool: MemberHoldPool;
  ownership: OrgOwnership;
  orgUsage: OrgUsage;
  db: DrizzleSqliteDODatabase<typeof schema>;
  ledger: Ledger;
  usage: Usage;
  subKeys: SubKeys;
  /** The account as `snapshot()` answers it, synchronously; throws without an account. */
  snapshot: () => AccountSnapshot;
}

/**
 * One per account: the only place its balance, holds, ledger, keys and spend counters change. This
 * is its money path (key checks, holds, settlements, credits and the batch that carries them);
 * `AccountManagement` (account-management.ts) adds its creation, key changes and the views of its
 * ledger, and `AccountDurableObject` (account.ts) what people and other objects ask beyond them:
 * its human's claim and auto top-up, suspension, and organizations (D29).
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
export class AccountCore extends DurableObject<Env> {
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
  readonly #spend: SpendCounters;
  readonly #organization: Organization;
  readonly #membership: Membership;
  readonly #pool: MemberHoldPool;
  readonly #calls = new CallCounts();
  readonly #ownership: OrgOwnership;
  readonly #orgUsage: OrgUsage;
  /** Where a checked key's hold is made: here, from a member's pool, or in its organization (D29). */
  readonly #routing: HoldRouting;
  /** What the services around the money path (`account.ts`) work with. */
  protected readonly parts: AccountParts;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage, { schema });
    this.#alarm = new ExpiryAlarm(ctx.storage);
    const tree = new KeyTree(ctx.storage);
    const spend = (this.#spend = new SpendCounters(ctx.storage, this.#memory.holds, tree));
    this.#keys = new Keys(ctx.storage, this.#db, this.#memory, spend, tree);
    this.#ledger = new Ledger(ctx.storage, this.#db, this.#memory, spend, this.#alarm);
    this.#claim = new ClaimState(ctx.storage, this.#memory);
    this.#topUp = new AutoTopUp(this.#db, this.#memory, this.#alarm, this.#ledger, (charge) => chargeSavedCard(stripeRail(this.env), charge), dailyCapOf(env));
    this.#usage = new Usage(ctx.storage);
    this.#suspension = new Suspension(ctx.storage, this.#memory, this.#ledger);
    this.#subKeys = new SubKeys(ctx.storage, this.#keys, spend, () => this.#membership.organizationId !== null || this.#membership.unconfirmed().size > 0);
    this.#requests = new RequestRecords(ctx.storage);
    this.#organization = new Organization(ctx.storage, this.#memory, this.#ledger, spend);
    const peers = organizationPeers(env);
    this.#membership = new Membership(ctx.storage, this.#memory, spend, peers);
    this.#pool = new MemberHoldPool(ctx.storage, this.#alarm, peers, () => ({ accountId: this.#memory.account!.id, organizationId: this.#membership.organizationId }));
    this.#ownership = new OrgOwnership(ctx.storage, this.#memory, this.#organization);
    this.#orgUsage = new OrgUsage(ctx.storage);
    this.#routing = new HoldRouting({ memory: this.#memory, keys: this.#keys, tree, spend, ledger: this.#ledger, membership: this.#membership, pool: this.#pool });
    this.parts = {
      memory: this.#memory,
      alarm: this.#alarm,
      calls: this.#calls,
      claim: this.#claim,
      keys: this.#keys,
      requests: this.#requests,
      suspension: this.#suspension,
      topUp: this.#topUp,
      organization: this.#organization,
      membership: this.#membership,
      pool: this.#pool,
      ownership: this.#ownership,
      orgUsage: this.#orgUsage,
      db: this.#db,
      ledger: this.#ledger,
      usage: this.#usage,
      subKeys: this.#subKeys,
      snapshot: () => this.#snapshot(),
    };
    void ctx.blockConcurrencyWhile(async () => {
      const [table] = ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'account'").toArray();
      if (!table) return;
      await migrate(this.#db, migrations);
      this.#memory.load(ctx.storage);
      await this.#alarm.load();
      this.#topUp.load();
      this.#pool.load(Date.now());
      await this.#alarm.schedule();
    });
  }

  /** Checks a key for routes that spend nothing (on the route class `route` when named). */
  async authenticate(keyHash: string, route?: RouteClass): Promise<Result<AuthenticatedKey, AuthFailure>> {
    return this.#authenticate(keyHash, route, Date.now());
  }

  /** The account as its owner sees it, for a valid key; one round trip for `GET /agent/account`. */
  async accountForKey(keyHash: string, route?: RouteClass): Promise<Result<{ account: AccountSnapshot; keyId: string }, AuthFailure>> {
    return this.#accountForKey(keyHash, route, Date.now());
  }

  /**
   * Authorizes a key and sets money aside in one step, the only call a billed route makes before
   * its upstream. The hold is `maxMicros` when the balance and the key's limits allow it, else the
   * most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  async authorizeHold(request: HoldRequest): Promise<Result<Hold, HoldFailure>> {
    this.#calls.direct('authorizeHold');
    const result = await this.#routing.hold(request, Date.now());
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
    const failed = (err: unknown): AccountOpReply => ({ error: err instanceof Error ? err.message : String(err) });
    // Every op's own work runs here, in order, synchronously; only a member's hold, account read or
    // request lookup then waits for its organization (D29), holding nothing of this account.
    const replies = ops.map((op): AccountOpReply | Promise<AccountOpReply> => {
      try {
        const reply = this.#applyOne(op, now);
        return reply instanceof Promise ? reply.catch(failed) : reply;
      } catch (err) {
        return failed(err);
      }
    });
    const results = await Promise.all(replies);
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

  /**
   * Releases holds whose caller never settled them (a crashed Worker), charges a due auto top-up,
   * then waits for the next of either.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#alarm.fired();
    this.#ledger.expire(now);
    this.#alarm.wakeBy(this.#memory.holds.soonestExpiry());
    await this.#pool.returnIdle(now);
    await this.#topUp.runDue(now);
    await this.#alarm.schedule();
  }

  #applyOne(op: AccountOp, now: number): AccountOpReply | Promise<AccountOpReply> {
    switch (op.op) {
      case 'hold':
        return this.#routing.hold(op.request, now);
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
        if (!checked.ok) return checked;
        const organizationId = this.#membership.organizationId;
        if (organizationId === null) return { ok: true, ...this.#ledger.spendable(checked.key, now) };
        // D29: a member's quote is what its organization would hold for it.
        const input = { memberAccountId: this.#memory.account!.id, keyId: checked.key.id, keyLimits: this.#spend.limits(checked.key, now) };
        return this.#membership
          .peer(organizationId)
          .spendableForMember(input)
          .then((result): AccountOpReply => (result.ok || result.reason !== 'not_member' ? result : { ok: true, ...this.#ledger.spendable(checked.key, Date.now()) }));
      }
      case 'request': {
        const checked = this.#keys.check(op.keyHash, undefined, now);
        if (!checked.ok) return checked;
        // D35: a sub-key finds only its own requests; the account's other keys find every one.
        const keyId = checked.key.parent_key_id === null ? undefined : checked.key.id;
        const request = this.#requests.find(op.requestId, null, keyId);
        if (request) return { ok: true, request };
        const organizations = this.#membership.organizations();
        return organizations.length === 0 ? { ok: false, reason: 'not_found' } : this.#membership.findRequest(organizations, op.requestId, keyId);
      }
      case 'sync':
        return null;
      default:
        throw new Error(`unknown call ${(op as { op: unknown }).op}`);
    }
  }

  /** A settlement that lowered the balance may start an auto top-up (charged by the alarm). */
  #settle(holdId: string, chargeMicros: number, now: number, record?: RequestRecord): SettleResult {
    const open = this.#memory.holds.get(holdId);
    // D29: a hold placed ahead of a member's request (its pool) learns the request at settlement.
    if (open && open.request_id === null && record?.requestId) open.request_id = record.requestId;
    const requestId = record && !record.requestId ? (open?.request_id ?? null) : null;
    const owner = open ? { memberAccountId: open.member_account_id, keyId: open.key_id } : record ? this.#holdOwner(holdId) : undefined;
    const result = this.#ledger.settle(holdId, chargeMicros, now);
    if (record && result.ok) this.#requests.settled(record, requestId, result.chargedMicros, now, owner);
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
    const open = this.#memory.holds.get(holdId);
    if (open && open.request_id === null && record?.requestId) open.request_id = record.requestId;
    const requestId = record && !record.requestId ? (open?.request_id ?? null) : null;
    const owner = open ? { memberAccountId: open.member_account_id, keyId: open.key_id } : record ? this.#holdOwner(holdId) : undefined;
    const result = this.#ledger.release(holdId, now);
    if (record && this.#ledger.knows(holdId)) this.#requests.released(record, requestId, now, owner);
    return result;
  }

  /** Whose a closed hold was (D29's member, D35's key), from its `hold:` ledger row. */
  #holdOwner(holdId: string): RecordOwner {
    const row = run<{ member_account_id: string | null; key_id: string | null }>(this.ctx.storage, SQL.holdOwner, `hold:${holdId}`)[0];
    return { memberAccountId: row?.member_account_id ?? null, keyId: row?.key_id ?? null };
  }

  /** D26: deletes up to `limit` request records past their retention; for tests and operators. */
  async pruneRequests(now: number, limit?: number): Promise<number> {
    return this.#requests.prune(now, limit);
  }

  #authenticate(keyHash: string, route: RouteClass | undefined, now: number): Result<AuthenticatedKey, AuthFailure> {
    const checked = this.#keys.check(keyHash, undefined, now, route);
    return checked.ok ? { ok: true, accountId: this.#memory.account!.id, keyId: checked.key.id, subKey: checked.key.parent_key_id !== null } : checked;
  }

  #accountForKey(
    keyHash: string,
    route: RouteClass | undefined,
    now: number,
  ): Result<{ account: AccountSnapshot; keyId: string }, AuthFailure> | Promise<Result<{ account: AccountSnapshot; keyId: string }, AuthFailure>> {
    const checked = this.#keys.check(keyHash, undefined, now, route);
    if (!checked.ok) return checked;
    // D35: the fund link opens USDC intents on the account's own caps, so a sub-key is not given it.
    const account = { ...this.#snapshot(), ...(checked.key.parent_key_id !== null && { fundToken: null }) };
    const keyId = checked.key.id;
    const organizationId = this.#membership.organizationId;
    if (organizationId === null) return { ok: true, account, keyId };
    // D29: a member also sees its organization (name, status, cap, its spend this month).
    return this.#membership
      .peer(organizationId)
      .memberView(account.accountId)
      .then((organization) => ({ ok: true as const, account: organization ? { ...account, organization } : account, keyId }));
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
      kind: row.kind === 'organization' ? 'organization' : 'account',
      name: row.name,
    };
  }
}
