import { DurableObject } from 'cloudflare:workers';
import { and, asc, desc, eq, inArray, lte, sql } from 'drizzle-orm';
import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { hashesEqual, randomBase62 } from '../../src/accounts/credentials';
import migrations from './migrations/migrations.js';
import { spendPeriods, TOTAL_PERIOD } from './periods';
import * as schema from './schema';
import { account, apiKeys, holds, keySpend, ledger } from './schema';
import type {
  AccountSnapshot,
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
  Settlement,
  SweepOutcome,
} from './types';

/** Card funding allowed before a human claims the account (spec "Limits"). */
const UNCLAIMED_CARD_CAP_MICROS = 500_000_000;
/** D3: a ceiling on concurrent billed work that protects this serialization point. */
export const MAX_OPEN_HOLDS = 128;
const DEFAULT_HOLD_TTL_MS = 60 * 60 * 1000;

type KeyRow = typeof apiKeys.$inferSelect;

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

/**
 * One per account: the only place its balance, holds, ledger, keys and spend counters change.
 * Every public method runs synchronously against SQLite, so calls are applied one at a time and
 * a burst of concurrent holds can never spend the same micro-dollar twice.
 */
export class AccountDurableObject extends DurableObject<Env> {
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  /** False until `create`: a stray key for an unknown account must not allocate storage. */
  #exists = false;
  /** When the alarm is set for, kept in memory so a hold costs no extra storage call. */
  #alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage, { schema });
    void ctx.blockConcurrencyWhile(async () => {
      const [table] = ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE name = 'account'").toArray();
      if (table) {
        await migrate(this.#db, migrations);
        this.#exists = this.#db.select({ id: account.id }).from(account).get() !== undefined;
        this.#alarmAt = await ctx.storage.getAlarm();
      }
    });
  }

  async create(input: NewAccount): Promise<AccountSnapshot> {
    if (!this.#exists) await migrate(this.#db, migrations);
    const now = Date.now();
    this.#db.transaction((tx) => {
      if (tx.select({ id: account.id }).from(account).get()) throw new Error('account already exists');
      tx.insert(account)
        .values({ id: input.accountId, createdAt: now, claimTokenHash: input.claimTokenHash, expiresAt: input.expiresAt })
        .run();
      tx.insert(apiKeys).values({ id: newId('key'), createdAt: now, ...input.key }).run();
    });
    this.#exists = true;
    if (input.welcomeMicros > 0) {
      await this.credit({ amountMicros: input.welcomeMicros, source: 'welcome', idempotencyKey: `welcome:${input.accountId}`, note: 'welcome credit' });
    }
    return this.snapshot();
  }

  /** Checks a key for routes that spend nothing. */
  async authenticate(keyHash: string): Promise<Result<AuthorizedKey, AuthFailure>> {
    const checked = this.#checkKey(keyHash, undefined, Date.now());
    return checked.ok ? { ok: true, ...this.#authorized(checked.key) } : checked;
  }

  /**
   * Authorizes a key and sets money aside in one step, the only call a billed route makes before
   * its upstream. The hold is `maxMicros` when the balance and the key's limits allow it, else the
   * most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  async authorizeHold(request: HoldRequest): Promise<Result<Hold, HoldFailure>> {
    const now = Date.now();
    const checked = this.#checkKey(request.keyHash, request.model, now);
    if (!checked.ok) return checked;
    const { key } = checked;

    const openHolds = this.#db
      .select({ count: sql<number>`count(*)`, sum: sql<number>`coalesce(sum(${holds.amountMicros}), 0)` })
      .from(holds)
      .where(eq(holds.state, 'open'))
      .get() ?? { count: 0, sum: 0 };
    if (openHolds.count >= MAX_OPEN_HOLDS) return { ok: false, reason: 'too_many_holds', openHolds: openHolds.count };

    const limit = this.#keyHeadroom(key, now);
    if (limit && limit.remainingMicros < request.minMicros) return { ok: false, ...limit };

    const available = this.#balance() - openHolds.sum;
    if (available < request.minMicros) {
      return { ok: false, reason: 'insufficient_credits', availableMicros: Math.max(0, available), neededMicros: request.minMicros };
    }

    const amount = Math.min(request.maxMicros, available, limit?.remainingMicros ?? Infinity);
    const holdId = newId('hold');
    this.#db.transaction((tx) => {
      tx.insert(holds)
        .values({
          id: holdId,
          keyId: key.id,
          amountMicros: amount,
          purpose: request.purpose,
          state: 'open',
          createdAt: now,
          expiresAt: now + (request.ttlMs ?? DEFAULT_HOLD_TTL_MS),
        })
        .run();
      this.#record(tx, { kind: 'hold', amountMicros: amount, holdId, keyId: key.id, idempotencyKey: `hold:${holdId}`, note: request.purpose }, now);
    });
    await this.#scheduleExpiry();
    return { ok: true, ...this.#authorized(key), holdId, amountMicros: amount, availableMicros: available - amount };
  }

  /**
   * Charges the actual cost of a hold and frees the rest. Idempotent: a repeated settlement of
   * the same hold returns the first result and charges nothing more. A hold the alarm already
   * expired is still charged, because the upstream did the work.
   */
  async settle(holdId: string, chargeMicros: number): Promise<Result<Settlement, { reason: 'unknown_hold' | 'hold_released' }>> {
    const now = Date.now();
    const hold = this.#db.select().from(holds).where(eq(holds.id, holdId)).get();
    if (!hold) return { ok: false, reason: 'unknown_hold' };
    if (hold.state === 'settled') {
      return { ok: true, holdId, chargedMicros: hold.chargedMicros ?? 0, balanceMicros: this.#balance(), applied: false };
    }
    if (hold.state === 'released') return { ok: false, reason: 'hold_released' };

    const charge = Math.max(0, Math.round(chargeMicros));
    this.#db.transaction((tx) => {
      const balance = this.#balance() - charge;
      tx.update(account).set({ balanceMicros: balance }).run();
      tx.update(holds).set({ state: 'settled', chargedMicros: charge, closedAt: now }).where(eq(holds.id, holdId)).run();
      this.#record(tx, { kind: 'charge', amountMicros: -charge, holdId, keyId: hold.keyId, idempotencyKey: `charge:${holdId}`, note: hold.purpose }, now);
      if (hold.state === 'open') {
        const rest = Math.max(0, hold.amountMicros - charge);
        this.#record(tx, { kind: 'release', amountMicros: rest, holdId, keyId: hold.keyId, idempotencyKey: `release:${holdId}`, note: 'settled' }, now);
      }
      if (hold.keyId) this.#addSpend(tx, hold.keyId, charge, now);
    });
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: this.#balance(), applied: true };
  }

  /** Frees a hold without charging (the upstream failed). Idempotent; a settled hold stays settled. */
  async release(holdId: string): Promise<{ released: boolean; balanceMicros: number }> {
    const hold = this.#db.select().from(holds).where(eq(holds.id, holdId)).get();
    if (hold?.state !== 'open') return { released: false, balanceMicros: this.#balance() };
    this.#db.transaction((tx) => this.#close(tx, hold, 'released', Date.now()));
    return { released: true, balanceMicros: this.#balance() };
  }

  /** Adds (or, for a negative operator correction, removes) money. Idempotent by key. */
  async credit(request: CreditRequest): Promise<{ applied: boolean; balanceMicros: number } | null> {
    if (!this.#exists) return null;
    const now = Date.now();
    const seen = this.#db.select({ seq: ledger.seq }).from(ledger).where(eq(ledger.idempotencyKey, request.idempotencyKey)).get();
    if (seen) return { applied: false, balanceMicros: this.#balance() };

    const funding = request.source !== 'welcome' && request.amountMicros > 0;
    this.#db.transaction((tx) => {
      const row = tx.select().from(account).get()!;
      tx.update(account)
        .set({
          balanceMicros: row.balanceMicros + request.amountMicros,
          ...(funding && row.fundedAt === null ? { fundedAt: now, expiresAt: null } : {}),
          ...(request.source === 'card' ? { cardFundedMicros: row.cardFundedMicros + request.amountMicros } : {}),
        })
        .run();
      this.#record(tx, { kind: 'credit', amountMicros: request.amountMicros, source: request.source, idempotencyKey: request.idempotencyKey, note: request.note ?? null }, now);
    });
    return { applied: true, balanceMicros: this.#balance() };
  }

  /** The account as its owner sees it, for a valid key; one round trip for `GET /agent/account`. */
  async accountForKey(keyHash: string): Promise<Result<{ account: AccountSnapshot }, AuthFailure>> {
    const checked = this.#checkKey(keyHash, undefined, Date.now());
    return checked.ok ? { ok: true, account: await this.snapshot() } : checked;
  }

  async snapshot(): Promise<AccountSnapshot> {
    const row = this.#db.select().from(account).get();
    if (!row) throw new Error('no such account');
    const held = this.#db
      .select({ sum: sql<number>`coalesce(sum(${holds.amountMicros}), 0)` })
      .from(holds)
      .where(eq(holds.state, 'open'))
      .get();
    return {
      accountId: row.id,
      createdAt: row.createdAt,
      balanceMicros: row.balanceMicros,
      heldMicros: held?.sum ?? 0,
      claimed: row.claimedAt !== null,
      funded: row.fundedAt !== null,
      expiresAt: row.expiresAt,
      unclaimedFundingRemainingMicros: row.claimedAt === null ? Math.max(0, UNCLAIMED_CARD_CAP_MICROS - row.cardFundedMicros) : null,
    };
  }

  /** Everything an operator looks at; null when the account does not exist. */
  async adminView(ledgerLimit = 50): Promise<AdminView | null> {
    if (!this.#exists) return null;
    return { account: await this.snapshot(), keys: await this.keys(), ledger: await this.ledgerEntries(ledgerLimit) };
  }

  /** Adds a key; null when the account does not exist. */
  async createKey(input: { hash: string; hint: string; name: string } & KeyGuardrails): Promise<KeyRecord | null> {
    if (!this.#exists) return null;
    const id = newId('key');
    this.#db.insert(apiKeys).values({ id, createdAt: Date.now(), ...input }).run();
    return this.#keyRecord(this.#db.select().from(apiKeys).where(eq(apiKeys.id, id)).get()!);
  }

  /** Changes a key's guardrails or revokes it; null when there is no such key. */
  async updateKey(keyId: string, patch: KeyGuardrails & { revoked?: boolean; name?: string }): Promise<KeyRecord | null> {
    if (!this.#exists) return null;
    const { revoked, ...rest } = patch;
    const changes = Object.fromEntries(
      Object.entries({ ...rest, revokedAt: revoked === undefined ? undefined : revoked ? Date.now() : null }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(changes).length > 0) this.#db.update(apiKeys).set(changes).where(eq(apiKeys.id, keyId)).run();
    const row = this.#db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
    return row ? this.#keyRecord(row) : null;
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
    const row = this.#exists ? this.#db.select().from(account).get() : undefined;
    if (row && (row.fundedAt !== null || row.claimedAt !== null || row.expiresAt === null || row.expiresAt > now)) {
      return { deleted: false, fundedAt: row.fundedAt, claimedAt: row.claimedAt, expiresAt: row.expiresAt };
    }
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.#exists = false;
    this.#alarmAt = null;
    return { deleted: true };
  }

  /** Releases holds whose caller never settled them (a crashed Worker), then waits for the next. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.#alarmAt = null;
    const stale = this.#db.select().from(holds).where(and(eq(holds.state, 'open'), lte(holds.expiresAt, now))).all();
    this.#db.transaction((tx) => {
      for (const hold of stale) this.#close(tx, hold, 'expired', now);
    });
    await this.#scheduleExpiry();
  }

  #checkKey(keyHash: string, model: string | undefined, now: number): { ok: true; key: KeyRow } | ({ ok: false } & AuthFailure) {
    if (!this.#exists) return { ok: false, reason: 'invalid_key' };
    const key = this.#db.select().from(apiKeys).where(eq(apiKeys.hash, keyHash)).get();
    if (!key || !hashesEqual(key.hash, keyHash)) return { ok: false, reason: 'invalid_key' };
    if (key.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (key.expiresAt !== null && key.expiresAt <= now) return { ok: false, reason: 'expired' };
    if (model !== undefined && key.allowedModels && !key.allowedModels.includes(model)) {
      return { ok: false, reason: 'model_not_allowed', model };
    }
    return { ok: true, key };
  }

  /** The tightest of the key's spend limits, counting what is spent and what its open holds keep. */
  #keyHeadroom(key: KeyRow, now: number) {
    const limits = [
      { reason: 'daily_limit', limit: key.dailyLimitMicros, period: 'day' },
      { reason: 'monthly_limit', limit: key.monthlyLimitMicros, period: 'month' },
      { reason: 'total_limit', limit: key.totalLimitMicros, period: 'total' },
    ] as const;
    if (limits.every((l) => l.limit === null)) return null;

    const periods = spendPeriods(now);
    const names = { day: periods.day, month: periods.month, total: TOTAL_PERIOD };
    const spent = new Map(
      this.#db
        .select()
        .from(keySpend)
        .where(and(eq(keySpend.keyId, key.id), inArray(keySpend.period, Object.values(names))))
        .all()
        .map((row) => [row.period, row.spentMicros]),
    );
    const held = this.#db
      .select({ sum: sql<number>`coalesce(sum(${holds.amountMicros}), 0)` })
      .from(holds)
      .where(and(eq(holds.state, 'open'), eq(holds.keyId, key.id)))
      .get()?.sum ?? 0;
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

  #addSpend(tx: Tx, keyId: string, micros: number, now: number): void {
    const periods = spendPeriods(now);
    for (const period of [periods.day, periods.month, TOTAL_PERIOD]) {
      tx.insert(keySpend)
        .values({ keyId, period, spentMicros: micros })
        .onConflictDoUpdate({ target: [keySpend.keyId, keySpend.period], set: { spentMicros: sql`${keySpend.spentMicros} + ${micros}` } })
        .run();
    }
  }

  #close(tx: Tx, hold: typeof holds.$inferSelect, state: 'released' | 'expired', now: number): void {
    tx.update(holds).set({ state, closedAt: now }).where(eq(holds.id, hold.id)).run();
    this.#record(tx, { kind: 'release', amountMicros: hold.amountMicros, holdId: hold.id, keyId: hold.keyId, idempotencyKey: `release:${hold.id}`, note: state }, now);
  }

  #record(tx: Tx, entry: Omit<typeof ledger.$inferInsert, 'balanceAfterMicros' | 'createdAt'>, now: number): void {
    const balance = tx.select({ balance: account.balanceMicros }).from(account).get()?.balance ?? 0;
    tx.insert(ledger).values({ ...entry, balanceAfterMicros: balance, createdAt: now }).run();
  }

  #balance(): number {
    return this.#db.select({ balance: account.balanceMicros }).from(account).get()?.balance ?? 0;
  }

  async #scheduleExpiry(): Promise<void> {
    const next = this.#db
      .select({ at: holds.expiresAt })
      .from(holds)
      .where(eq(holds.state, 'open'))
      .orderBy(asc(holds.expiresAt))
      .limit(1)
      .get();
    if (!next || (this.#alarmAt !== null && this.#alarmAt <= next.at)) return;
    this.#alarmAt = next.at;
    await this.ctx.storage.setAlarm(next.at);
  }

  #authorized(key: KeyRow): AuthorizedKey {
    return { accountId: this.#accountId(), keyId: key.id };
  }

  #accountId(): string {
    return this.#db.select({ id: account.id }).from(account).get()?.id ?? '';
  }

  #keyRecord(row: KeyRow): KeyRecord {
    const { hash: _hash, ...record } = row;
    return record;
  }
}

type Tx = Parameters<Parameters<DrizzleSqliteDODatabase<typeof schema>['transaction']>[0]>[0];

function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}
