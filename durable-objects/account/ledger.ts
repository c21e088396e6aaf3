import { desc } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type { ExpiryAlarm } from './alarm';
import { sortableId } from './ids';
import type { AccountMemory } from './memory';
import type * as schema from './schema';
import { ledger, type CreditSource, type LedgerKind } from './schema';
import type { SpendCounters } from './spend';
import { run, SQL, type AccountRow, type KeyRow, type OpenHold } from './statements';
import type { CreditRequest, Hold, HoldFailure, HoldRequest, LedgerEntry, ReleaseResult, Result, SettleResult } from './types';

/** D3: a ceiling on concurrent billed work that protects this serialization point. */
export const MAX_OPEN_HOLDS = 128;
const DEFAULT_HOLD_TTL_MS = 60 * 60 * 1000;

/**
 * The money: the balance, the open holds and the ledger rows that record every movement. Each
 * movement is one synchronous SQLite transaction of constant statements (`statements.ts`), and the
 * memory copies change only after it has committed. `hold` and `credit` expect the account to
 * exist (the Durable Object checks first); `release` and `settle` look for the hold first.
 */
export class Ledger {
  readonly #storage: DurableObjectStorage;
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  readonly #memory: AccountMemory;
  readonly #spend: SpendCounters;
  readonly #alarm: ExpiryAlarm;

  constructor(
    storage: DurableObjectStorage,
    db: DrizzleSqliteDODatabase<typeof schema>,
    memory: AccountMemory,
    spend: SpendCounters,
    alarm: ExpiryAlarm,
  ) {
    this.#storage = storage;
    this.#db = db;
    this.#memory = memory;
    this.#spend = spend;
    this.#alarm = alarm;
  }

  /**
   * Sets money aside for a checked key: `maxMicros` when the balance and the key's limits allow
   * it, else the most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  hold(key: KeyRow, request: HoldRequest, now: number): Result<Hold, HoldFailure> {
    const holds = this.#memory.holds;
    if (holds.size >= MAX_OPEN_HOLDS) return { ok: false, reason: 'too_many_holds', openHolds: holds.size };

    const limit = this.#spend.headroom(key, now);
    if (limit && limit.remainingMicros < request.minMicros) return { ok: false, ...limit };

    const account = this.#memory.account!;
    const balance = account.balance_micros;
    const available = balance - holds.heldMicros;
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
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.insertHold, hold.id, hold.key_id, hold.amount_micros, hold.purpose, now, hold.expires_at);
      this.#row('hold', hold.amount_micros, balance, hold, null, `hold:${hold.id}`, hold.purpose, now);
    });
    holds.add(hold);
    this.#alarm.wakeBy(hold.expires_at);
    return { ok: true, accountId: account.id, keyId: key.id, holdId: hold.id, amountMicros: hold.amount_micros, availableMicros: available - hold.amount_micros };
  }

  /**
   * Charges the actual cost of a hold and frees the rest. Idempotent: a repeated settlement of
   * the same hold returns the first result and charges nothing more.
   */
  settle(holdId: string, chargeMicros: number, now: number): SettleResult {
    const charge = Math.max(0, Math.round(chargeMicros));
    const open = this.#memory.holds.get(holdId);
    if (!open) return this.#settleClosed(holdId, charge, now);
    const account = this.#memory.account!;
    const balance = account.balance_micros - charge;
    const freed = Math.max(0, open.amount_micros - charge);
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setBalance, balance);
      run(this.#storage, SQL.deleteHold, holdId);
      run(
        this.#storage,
        SQL.insertLedger2,
        ...['charge', -charge, balance, holdId, open.key_id, null, `charge:${holdId}`, open.purpose, now],
        ...['release', freed, balance, holdId, open.key_id, null, `release:${holdId}`, 'settled', now],
      );
      this.#spend.count(open.key_id, charge, now);
    });
    account.balance_micros = balance;
    this.#memory.holds.remove(open);
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: balance, applied: true };
  }

  /** Frees a hold without charging (the upstream failed). Idempotent; a settled hold stays settled. */
  release(holdId: string, now: number): ReleaseResult {
    const hold = this.#memory.holds.get(holdId);
    if (hold) this.#close(hold, 'released', now);
    return { released: hold !== undefined, balanceMicros: this.#memory.account?.balance_micros ?? 0 };
  }

  /** Releases the holds whose time is up (their callers crashed). */
  expire(now: number): void {
    for (const hold of this.#memory.holds.expiredAt(now)) this.#close(hold, 'expired', now);
  }

  /** Adds (or, for a negative operator correction, removes) money. Idempotent by key. */
  credit(request: CreditRequest, now: number): { applied: boolean; balanceMicros: number } {
    const row = this.#memory.account!;
    if (run(this.#storage, SQL.ledgerKeyExists, request.idempotencyKey).length > 0) return { applied: false, balanceMicros: row.balance_micros };
    const funding = request.source !== 'welcome' && request.amountMicros > 0;
    const next: AccountRow = {
      ...row,
      balance_micros: row.balance_micros + request.amountMicros,
      funded_at: funding && row.funded_at === null ? now : row.funded_at,
      expires_at: funding ? null : row.expires_at,
      card_funded_micros: row.card_funded_micros + (request.source === 'card' ? request.amountMicros : 0),
    };
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setFunding, next.balance_micros, next.funded_at, next.expires_at, next.card_funded_micros);
      this.#row('credit', request.amountMicros, next.balance_micros, null, request.source, request.idempotencyKey, request.note ?? null, now);
    });
    this.#memory.account = next;
    return { applied: true, balanceMicros: next.balance_micros };
  }

  /** The newest `limit` ledger rows, newest first. */
  entries(limit: number): LedgerEntry[] {
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

  /**
   * A settlement for a hold that is no longer open, read from the ledger: a repeat returns the
   * first charge, a released hold refuses, and an expired hold is still charged, because the
   * upstream did the work (its release is already in the ledger).
   */
  #settleClosed(holdId: string, charge: number, now: number): SettleResult {
    const rows = run<{ kind: LedgerKind; amount_micros: number; key_id: string | null; note: string | null }>(
      this.#storage,
      SQL.closedHold,
      `hold:${holdId}`,
      `charge:${holdId}`,
      `release:${holdId}`,
    );
    const row = (kind: LedgerKind) => rows.find((r) => r.kind === kind);
    const held = row('hold');
    if (!held) return { ok: false, reason: 'unknown_hold' };
    const account = this.#memory.account!;
    const charged = row('charge');
    if (charged) return { ok: true, holdId, chargedMicros: Math.abs(charged.amount_micros), balanceMicros: account.balance_micros, applied: false };
    if (row('release')?.note !== 'expired') return { ok: false, reason: 'hold_released' };

    const balance = account.balance_micros - charge;
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setBalance, balance);
      this.#row('charge', -charge, balance, { id: holdId, key_id: held.key_id }, null, `charge:${holdId}`, held.note, now);
      this.#spend.count(held.key_id, charge, now);
    });
    account.balance_micros = balance;
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: balance, applied: true };
  }

  #close(hold: OpenHold, state: 'released' | 'expired', now: number): void {
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.deleteHold, hold.id);
      this.#row('release', hold.amount_micros, this.#memory.account!.balance_micros, hold, null, `release:${hold.id}`, state, now);
    });
    this.#memory.holds.remove(hold);
  }

  #row(
    kind: LedgerKind,
    amount: number,
    balanceAfter: number,
    hold: Pick<OpenHold, 'id' | 'key_id'> | null,
    source: CreditSource | null,
    idempotencyKey: string,
    note: string | null,
    now: number,
  ): void {
    run(this.#storage, SQL.insertLedger, kind, amount, balanceAfter, hold?.id ?? null, hold?.key_id ?? null, source, idempotencyKey, note, now);
  }
}
