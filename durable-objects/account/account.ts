import { DurableObject } from 'cloudflare:workers';
import { asc, desc, eq } from 'drizzle-orm';
import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { hashesEqual, randomBase62 } from '../../src/accounts/credentials';
import migrations from './migrations/migrations.js';
import { spendPeriods, TOTAL_PERIOD } from './periods';
import * as schema from './schema';
import { account, apiKeys, ledger } from './schema';
import type { CreditSource, LedgerKind } from './schema';
import { SQL, type AccountRow, type KeyRow, type OpenHold } from './statements';
import type {
  AccountOp,
  AccountOpReply,
  AccountSnapshot,
  BatchReply,
  ReleaseResult,
  SettleResult,
  AuthFailure,
  AuthorizedKey,
  CreditRequest,
  Hold,
  HoldFailure,
  HoldRequest,
  KeyGuardrails,
  KeyRecord,
  LedgerEntry,
  Result,
  SweepOutcome,
} from './types';

/** Card funding allowed before a human claims the account (spec "Limits"). */
const UNCLAIMED_CARD_CAP_MICROS = 500_000_000;
/** D3: a ceiling on concurrent billed work that protects this serialization point. */
export const MAX_OPEN_HOLDS = 128;
const DEFAULT_HOLD_TTL_MS = 60 * 60 * 1000;

export interface NewAccount {
  accountId: string;
  claimTokenHash: string;
  key: { hash: string; hint: string; name: string };
  expiresAt: number;
  /** One-time starter credit, 0 for none. */
  welcomeMicros: number;
}

export interface AdminView {
  account: AccountSnapshot;
  keys: KeyRecord[];
  ledger: LedgerEntry[];
}

type CheckedKey = { ok: true; key: KeyRow } | ({ ok: false } & AuthFailure);

/**
 * One per account: the only place its balance, holds, ledger, keys and spend counters change.
 * Every public method runs synchronously against SQLite, so calls are applied one at a time and a
 * burst of concurrent holds can never spend the same micro-dollar twice.
 *
 * The hot path (authorize, hold, settle, release) keeps the account row, the open holds and the
 * keys it has seen in memory — this object is their only writer — and writes with constant SQL
 * (`statements.ts`). Memory changes only after the SQLite transaction has committed.
 */
export class AccountDurableObject extends DurableObject<Env> {
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  /** Null until `create`: a stray key for an unknown account must not allocate storage. */
  #account: AccountRow | null = null;
  #open = new Map<string, OpenHold>();
  #held = 0;
  #keys = new Map<string, KeyRow>();
  /** Whether a key (by id) has any spend limit, so a settlement knows whether to count its spend. */
  #limitedKeys = new Map<string, boolean>();
  /** When the alarm is set for, so a hold costs no extra storage call. */
  #alarmAt: number | null = null;
  /** The soonest expiry among holds made since the alarm was last looked at. */
  #nextExpiry = Infinity;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage, { schema });
    void ctx.blockConcurrencyWhile(async () => {
      const [table] = ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'account'").toArray();
      if (!table) return;
      await migrate(this.#db, migrations);
      this.#load();
      this.#alarmAt = await ctx.storage.getAlarm();
    });
  }

  async create(input: NewAccount): Promise<AccountSnapshot> {
    if (this.#account) throw new Error('account already exists');
    await migrate(this.#db, migrations);
    const now = Date.now();
    this.#db.transaction((tx) => {
      tx.insert(account)
        .values({ id: input.accountId, createdAt: now, claimTokenHash: input.claimTokenHash, expiresAt: input.expiresAt })
        .run();
      tx.insert(apiKeys).values({ id: newId('key'), createdAt: now, ...input.key }).run();
    });
    this.#load();
    if (input.welcomeMicros > 0) {
      await this.credit({ amountMicros: input.welcomeMicros, source: 'welcome', idempotencyKey: `welcome:${input.accountId}`, note: 'welcome credit' });
    }
    return this.snapshot();
  }

  /** Checks a key for routes that spend nothing. */
  async authenticate(keyHash: string): Promise<Result<AuthorizedKey, AuthFailure>> {
    return this.#authenticate(keyHash, Date.now());
  }

  /** The account as its owner sees it, for a valid key; one round trip for `GET /agent/account`. */
  async accountForKey(keyHash: string): Promise<Result<{ account: AccountSnapshot }, AuthFailure>> {
    return this.#accountForKey(keyHash, Date.now());
  }

  #authenticate(keyHash: string, now: number): Result<AuthorizedKey, AuthFailure> {
    const checked = this.#checkKey(keyHash, undefined, now);
    return checked.ok ? { ok: true, accountId: this.#account!.id, keyId: checked.key.id } : checked;
  }

  #accountForKey(keyHash: string, now: number): Result<{ account: AccountSnapshot }, AuthFailure> {
    const checked = this.#checkKey(keyHash, undefined, now);
    return checked.ok ? { ok: true, account: this.#snapshot() } : checked;
  }

  /**
   * Authorizes a key and sets money aside in one step, the only call a billed route makes before
   * its upstream. The hold is `maxMicros` when the balance and the key's limits allow it, else the
   * most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  async authorizeHold(request: HoldRequest): Promise<Result<Hold, HoldFailure>> {
    const result = this.#hold(request, Date.now());
    await this.#scheduleExpiry();
    return result;
  }

  /**
   * Charges the actual cost of a hold and frees the rest. Idempotent: a repeated settlement of
   * the same hold returns the first result and charges nothing more. A hold the alarm already
   * expired is still charged, because the upstream did the work.
   */
  async settle(holdId: string, chargeMicros: number): Promise<SettleResult> {
    return this.#settle(holdId, chargeMicros, Date.now());
  }

  /** Frees a hold without charging (the upstream failed). Idempotent; a settled hold stays settled. */
  async release(holdId: string): Promise<ReleaseResult> {
    return this.#release(holdId, Date.now());
  }

  /**
   * Applies a batch of calls in order, as one storage commit: what a Worker sends when several of
   * its requests reach this account at once (`src/accounts/account-client.ts`). One call's failure
   * is that call's answer; the others still apply.
   */
  async apply(ops: AccountOp[]): Promise<BatchReply> {
    const now = Date.now();
    const results = ops.map((op): AccountOpReply => {
      try {
        return this.#applyOne(op, now);
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    });
    await this.#scheduleExpiry();
    return { results, balanceMicros: this.#account?.balance_micros ?? 0 };
  }

  #applyOne(op: AccountOp, now: number): AccountOpReply {
    switch (op.op) {
      case 'hold':
        return this.#hold(op.request, now);
      case 'settle':
        return this.#settle(op.holdId, op.chargeMicros, now);
      case 'release':
        return this.#release(op.holdId, now);
      case 'authenticate':
        return this.#authenticate(op.keyHash, now);
      case 'account':
        return this.#accountForKey(op.keyHash, now);
      case 'sync':
        return null;
      default:
        throw new Error(`unknown call ${(op as { op: unknown }).op}`);
    }
  }

  #hold(request: HoldRequest, now: number): Result<Hold, HoldFailure> {
    const checked = this.#checkKey(request.keyHash, request.model, now);
    if (!checked.ok) return checked;
    const { key } = checked;
    if (this.#open.size >= MAX_OPEN_HOLDS) return { ok: false, reason: 'too_many_holds', openHolds: this.#open.size };

    const limit = this.#keyHeadroom(key, now);
    if (limit && limit.remainingMicros < request.minMicros) return { ok: false, ...limit };

    const balance = this.#account!.balance_micros;
    const available = balance - this.#held;
    if (available < request.minMicros) {
      return { ok: false, reason: 'insufficient_credits', availableMicros: Math.max(0, available), neededMicros: request.minMicros };
    }

    const hold: OpenHold = {
      id: sortableId('hold'),
      key_id: key.id,
      amount_micros: Math.min(request.maxMicros, available, limit?.remainingMicros ?? Infinity),
      purpose: request.purpose,
      expires_at: now + (request.ttlMs ?? DEFAULT_HOLD_TTL_MS),
    };
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.insertHold, hold.id, hold.key_id, hold.amount_micros, hold.purpose, now, hold.expires_at);
      this.#ledger('hold', hold.amount_micros, balance, hold, null, `hold:${hold.id}`, hold.purpose, now);
    });
    this.#open.set(hold.id, hold);
    this.#held += hold.amount_micros;
    this.#nextExpiry = Math.min(this.#nextExpiry, hold.expires_at);
    return { ok: true, accountId: this.#account!.id, keyId: key.id, holdId: hold.id, amountMicros: hold.amount_micros, availableMicros: available - hold.amount_micros };
  }

  #settle(holdId: string, chargeMicros: number, now: number): SettleResult {
    const charge = Math.max(0, Math.round(chargeMicros));
    const open = this.#open.get(holdId);
    if (!open) return this.#settleClosed(holdId, charge, now);
    const balance = this.#account!.balance_micros - charge;
    const freed = Math.max(0, open.amount_micros - charge);
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.setBalance, balance);
      this.#sql(SQL.deleteHold, holdId);
      this.#sql(
        SQL.insertLedger2,
        ...['charge', -charge, balance, holdId, open.key_id, null, `charge:${holdId}`, open.purpose, now],
        ...['release', freed, balance, holdId, open.key_id, null, `release:${holdId}`, 'settled', now],
      );
      this.#countSpend(open.key_id, charge, now);
    });
    this.#account!.balance_micros = balance;
    this.#forget(open);
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: balance, applied: true };
  }

  /**
   * A settlement for a hold that is no longer open, read from the ledger: a repeat returns the
   * first charge, a released hold refuses, and an expired hold is still charged, because the
   * upstream did the work (its release is already in the ledger).
   */
  #settleClosed(holdId: string, charge: number, now: number): SettleResult {
    const rows = this.#sql<{ kind: LedgerKind; amount_micros: number; key_id: string | null; note: string | null }>(
      SQL.closedHold,
      `hold:${holdId}`,
      `charge:${holdId}`,
      `release:${holdId}`,
    );
    const row = (kind: LedgerKind) => rows.find((r) => r.kind === kind);
    const held = row('hold');
    if (!held) return { ok: false, reason: 'unknown_hold' };
    const charged = row('charge');
    if (charged) return { ok: true, holdId, chargedMicros: Math.abs(charged.amount_micros), balanceMicros: this.#account!.balance_micros, applied: false };
    if (row('release')?.note !== 'expired') return { ok: false, reason: 'hold_released' };

    const balance = this.#account!.balance_micros - charge;
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.setBalance, balance);
      this.#ledger('charge', -charge, balance, { id: holdId, key_id: held.key_id }, null, `charge:${holdId}`, held.note, now);
      this.#countSpend(held.key_id, charge, now);
    });
    this.#account!.balance_micros = balance;
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: balance, applied: true };
  }

  /** Counts a charge against its key's limits. Keys without limits keep no counters (see `#recountSpend`). */
  #countSpend(keyId: string | null, charge: number, now: number): void {
    if (keyId === null || !this.#keyLimited(keyId)) return;
    const periods = spendPeriods(now);
    this.#sql(SQL.addSpend, keyId, periods.day, charge, keyId, periods.month, charge, keyId, TOTAL_PERIOD, charge);
  }

  #keyLimited(keyId: string): boolean {
    let limited = this.#limitedKeys.get(keyId);
    if (limited === undefined) {
      limited = this.#sql<{ limited: number }>(SQL.keyLimited, keyId)[0]?.limited === 1;
      this.#limitedKeys.set(keyId, limited);
    }
    return limited;
  }

  /** Rebuilds a key's spend counters from its ledger charges, for a key that has just been given limits. */
  #recountSpend(keyId: string, now: number): void {
    const periods = spendPeriods(now);
    const spentSince = (from: number) => this.#sql<{ spent: number }>(SQL.chargedSince, keyId, from)[0]!.spent;
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.clearSpend, keyId);
      this.#sql(
        SQL.addSpend,
        ...[keyId, periods.day, spentSince(periods.dayStart)],
        ...[keyId, periods.month, spentSince(periods.monthStart)],
        ...[keyId, TOTAL_PERIOD, spentSince(0)],
      );
    });
  }

  #release(holdId: string, now: number): ReleaseResult {
    const hold = this.#open.get(holdId);
    if (hold) this.#close(hold, 'released', now);
    return { released: hold !== undefined, balanceMicros: this.#account?.balance_micros ?? 0 };
  }

  /** Adds (or, for a negative operator correction, removes) money. Idempotent by key; null without an account. */
  async credit(request: CreditRequest): Promise<{ applied: boolean; balanceMicros: number } | null> {
    const row = this.#account;
    if (!row) return null;
    if (this.#sql(SQL.ledgerKeyExists, request.idempotencyKey).length > 0) return { applied: false, balanceMicros: row.balance_micros };
    const now = Date.now();
    const funding = request.source !== 'welcome' && request.amountMicros > 0;
    const next: AccountRow = {
      ...row,
      balance_micros: row.balance_micros + request.amountMicros,
      funded_at: funding && row.funded_at === null ? now : row.funded_at,
      expires_at: funding ? null : row.expires_at,
      card_funded_micros: row.card_funded_micros + (request.source === 'card' ? request.amountMicros : 0),
    };
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.setFunding, next.balance_micros, next.funded_at, next.expires_at, next.card_funded_micros);
      this.#ledger('credit', request.amountMicros, next.balance_micros, null, request.source, request.idempotencyKey, request.note ?? null, now);
    });
    this.#account = next;
    return { applied: true, balanceMicros: next.balance_micros };
  }

  async snapshot(): Promise<AccountSnapshot> {
    return this.#snapshot();
  }

  #snapshot(): AccountSnapshot {
    const row = this.#account;
    if (!row) throw new Error('no such account');
    return {
      accountId: row.id,
      createdAt: row.created_at,
      balanceMicros: row.balance_micros,
      heldMicros: this.#held,
      claimed: row.claimed_at !== null,
      funded: row.funded_at !== null,
      expiresAt: row.expires_at,
      unclaimedFundingRemainingMicros: row.claimed_at === null ? Math.max(0, UNCLAIMED_CARD_CAP_MICROS - row.card_funded_micros) : null,
    };
  }

  /** Everything an operator looks at; null when the account does not exist. */
  async adminView(ledgerLimit = 50): Promise<AdminView | null> {
    if (!this.#account) return null;
    return { account: await this.snapshot(), keys: await this.keys(), ledger: await this.ledgerEntries(ledgerLimit) };
  }

  /** Adds a key; null when the account does not exist. */
  async createKey(input: { hash: string; hint: string; name: string } & KeyGuardrails): Promise<KeyRecord | null> {
    if (!this.#account) return null;
    const id = newId('key');
    this.#db.insert(apiKeys).values({ id, createdAt: Date.now(), ...input }).run();
    return this.#keyRecord(this.#db.select().from(apiKeys).where(eq(apiKeys.id, id)).get()!);
  }

  /** Changes a key's guardrails or revokes it; null when there is no such key. */
  async updateKey(keyId: string, patch: KeyGuardrails & { revoked?: boolean; name?: string }): Promise<KeyRecord | null> {
    if (!this.#account) return null;
    const { revoked, ...rest } = patch;
    const changes = Object.fromEntries(
      Object.entries({ ...rest, revokedAt: revoked === undefined ? undefined : revoked ? Date.now() : null }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(changes).length > 0) this.#db.update(apiKeys).set(changes).where(eq(apiKeys.id, keyId)).run();
    // revocation and new limits apply from the next request
    this.#keys.clear();
    this.#limitedKeys.clear();
    const row = this.#db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
    if (!row) return null;
    if (row.dailyLimitMicros !== null || row.monthlyLimitMicros !== null || row.totalLimitMicros !== null) this.#recountSpend(keyId, Date.now());
    return this.#keyRecord(row);
  }

  async keys(): Promise<KeyRecord[]> {
    return this.#db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt)).all().map((row) => this.#keyRecord(row));
  }

  async ledgerEntries(limit = 50): Promise<LedgerEntry[]> {
    return this.#db
      .select({
        seq: ledger.seq,
        kind: ledger.kind,
        amountMicros: ledger.amountMicros,
        balanceAfterMicros: ledger.balanceAfterMicros,
        holdId: ledger.holdId,
        keyId: ledger.keyId,
        source: ledger.source,
        note: ledger.note,
        createdAt: ledger.createdAt,
      })
      .from(ledger)
      .orderBy(desc(ledger.seq))
      .limit(limit)
      .all();
  }

  /** The sweep's last word: deletes everything unless the account was funded or claimed meanwhile. */
  async deleteIfExpired(now: number): Promise<SweepOutcome> {
    const row = this.#account;
    if (row && (row.funded_at !== null || row.claimed_at !== null || row.expires_at === null || row.expires_at > now)) {
      return { deleted: false, fundedAt: row.funded_at, claimedAt: row.claimed_at, expiresAt: row.expires_at };
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#account = null;
    this.#open.clear();
    this.#held = 0;
    this.#keys.clear();
    this.#limitedKeys.clear();
    this.#alarmAt = null;
    return { deleted: true };
  }

  /** Releases holds whose caller never settled them (a crashed Worker), then waits for the next. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#alarmAt = null;
    for (const hold of [...this.#open.values()]) if (hold.expires_at <= now) this.#close(hold, 'expired', now);
    this.#nextExpiry = Math.min(...[...this.#open.values()].map((hold) => hold.expires_at));
    await this.#scheduleExpiry();
  }

  #load(): void {
    this.#account = this.#sql<AccountRow>(SQL.account)[0] ?? null;
    this.#open = new Map(this.#sql<OpenHold>(SQL.openHolds).map((hold) => [hold.id, hold]));
    this.#held = [...this.#open.values()].reduce((sum, hold) => sum + hold.amount_micros, 0);
  }

  #checkKey(keyHash: string, model: string | undefined, now: number): CheckedKey {
    if (!this.#account) return { ok: false, reason: 'invalid_key' };
    let key = this.#keys.get(keyHash);
    if (!key) {
      key = this.#sql<KeyRow>(SQL.keyByHash, keyHash)[0];
      if (!key) return { ok: false, reason: 'invalid_key' };
      this.#keys.set(keyHash, key);
    }
    if (!hashesEqual(key.hash, keyHash)) return { ok: false, reason: 'invalid_key' };
    if (key.revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (key.expires_at !== null && key.expires_at <= now) return { ok: false, reason: 'expired' };
    if (model !== undefined && key.allowed_models && !(JSON.parse(key.allowed_models) as string[]).includes(model)) {
      return { ok: false, reason: 'model_not_allowed', model };
    }
    return { ok: true, key };
  }

  /** The tightest of the key's spend limits, counting what is spent and what its open holds keep. */
  #keyHeadroom(key: KeyRow, now: number) {
    const limits = [
      { reason: 'daily_limit', limit: key.daily_limit_micros, period: 'day' },
      { reason: 'monthly_limit', limit: key.monthly_limit_micros, period: 'month' },
      { reason: 'total_limit', limit: key.total_limit_micros, period: 'total' },
    ] as const;
    if (limits.every((l) => l.limit === null)) return null;

    const periods = spendPeriods(now);
    const names = { day: periods.day, month: periods.month, total: TOTAL_PERIOD };
    const spent = new Map(
      this.#sql<{ period: string; spent_micros: number }>(SQL.spend, key.id, names.day, names.month, names.total).map((row) => [row.period, row.spent_micros]),
    );
    let held = 0;
    for (const hold of this.#open.values()) if (hold.key_id === key.id) held += hold.amount_micros;
    const retryAfter = { day: periods.secondsToNextDay, month: periods.secondsToNextMonth, total: 86_400 };

    let tightest: { reason: (typeof limits)[number]['reason']; remainingMicros: number; retryAfterSeconds: number } | null = null;
    for (const { reason, limit, period } of limits) {
      if (limit === null) continue;
      const remaining = Math.max(0, limit - (spent.get(names[period]) ?? 0) - held);
      if (!tightest || remaining < tightest.remainingMicros) {
        tightest = { reason, remainingMicros: remaining, retryAfterSeconds: retryAfter[period] };
      }
    }
    return tightest;
  }

  #close(hold: OpenHold, state: 'released' | 'expired', now: number): void {
    this.ctx.storage.transactionSync(() => {
      this.#sql(SQL.deleteHold, hold.id);
      this.#ledger('release', hold.amount_micros, this.#account!.balance_micros, hold, null, `release:${hold.id}`, state, now);
    });
    this.#forget(hold);
  }

  #forget(hold: OpenHold): void {
    this.#open.delete(hold.id);
    this.#held -= hold.amount_micros;
  }

  #ledger(
    kind: LedgerKind,
    amount: number,
    balanceAfter: number,
    hold: Pick<OpenHold, 'id' | 'key_id'> | null,
    source: CreditSource | null,
    idempotencyKey: string,
    note: string | null,
    now: number,
  ): void {
    this.#sql(SQL.insertLedger, kind, amount, balanceAfter, hold?.id ?? null, hold?.key_id ?? null, source, idempotencyKey, note, now);
  }

  #sql<T extends Record<string, SqlStorageValue>>(query: string, ...bindings: unknown[]): T[] {
    return this.ctx.storage.sql.exec<T>(query, ...bindings).toArray();
  }

  /** Sets the alarm for the soonest new hold expiry unless it already fires sooner: one storage call per batch at most. */
  async #scheduleExpiry(): Promise<void> {
    const at = this.#nextExpiry;
    this.#nextExpiry = Infinity;
    if (!Number.isFinite(at) || (this.#alarmAt !== null && this.#alarmAt <= at)) return;
    this.#alarmAt = at;
    await this.ctx.storage.setAlarm(at);
  }

  #keyRecord(row: typeof apiKeys.$inferSelect): KeyRecord {
    const { hash: _hash, ...record } = row;
    return record;
  }
}

function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/**
 * An id that sorts by creation time, for rows written on every request: appended at the end of
 * the primary-key and ledger indexes instead of scattered through them, which keeps each commit to
 * a few pages.
 */
function sortableId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36).padStart(9, '0')}${randomBase62(12)}`;
}
