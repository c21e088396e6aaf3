import { desc, lt } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type { ExpiryAlarm } from './alarm';
import { sortableId } from './ids';
import type { AccountMemory } from './memory';
import type * as schema from './schema';
import { ledger, type CreditSource, type LedgerKind } from './schema';
import type { SpendCounters } from './spend';
import { run, SQL, type AccountRow, type KeyRow, type OpenHold } from './statements';
import { RateWindow } from './rate-window';
import type { CreditRequest, ExtendResult, Hold, HoldFailure, HoldRequest, LedgerPage, ReleaseResult, Result, SettleResult, Spendable } from './types';

/** D3's ceilings on open holds (in-flight requests, and long-lived job holds) live in `holds.ts`. */
export { MAX_OPEN_HOLDS, MAX_OPEN_JOB_HOLDS } from './holds';
const DEFAULT_HOLD_TTL_MS = 60 * 60 * 1000;
/** Why a hold was closed without a settlement, in its `release` row's note. */
const EXPIRED = 'expired';
const RELEASED = 'released';
const OPERATOR = 'operator: ';
/** D29: a hold an organization placed ahead of a member's requests that no request used (a late settlement of it is refused). */
const UNUSED = 'unused';

/** D35: the fund link opens USDC intents on the account's own caps, so a 402 names it to the account's own keys only. */
const fundTokenFor = (key: KeyRow, token: string | null) => (key.parent_key_id === null ? token : null);

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
  readonly #rate = new RateWindow();
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

  /** What `hold` would allow a checked key now, changing nothing. */
  spendable(key: KeyRow, now: number): Spendable {
    const account = this.#memory.account!;
    const accountAvailable = Math.max(0, account.balance_micros - this.#memory.holds.heldMicros);
    const limit = this.#spend.headroom(key, now);
    return {
      accountId: account.id,
      keyId: key.id,
      availableMicros: Math.min(accountAvailable, limit?.remainingMicros ?? Infinity),
      accountAvailableMicros: accountAvailable,
      fundToken: fundTokenFor(key, account.fund_token),
    };
  }

  /**
   * Sets money aside for a checked key: `maxMicros` when the balance and the key's limits allow
   * it, else the most they allow down to `minMicros`, else a failure naming the binding constraint.
   */
  hold(key: KeyRow, request: HoldRequest, now: number): Result<Hold, HoldFailure> {
    // The Worker never asks otherwise; a negative or inverted hold would add to what can be spent.
    const { minMicros, maxMicros } = request;
    if (!Number.isSafeInteger(minMicros) || !Number.isSafeInteger(maxMicros) || minMicros < 0 || maxMicros < minMicros) {
      throw new Error(`invalid hold: min ${minMicros}, max ${maxMicros} micro-dollars`);
    }
    const holds = this.#memory.holds;
    const full = holds.fullFor(request.purpose);
    if (full !== null) return { ok: false, reason: 'too_many_holds', openHolds: full };
    const { perMinute } = request;
    const wait = perMinute === undefined ? null : this.#rate.wait(request.purpose, perMinute, now);
    if (perMinute !== undefined && wait !== null) return { ok: false, reason: 'rate_limited', perMinute, retryAfterSeconds: wait };

    const limit = this.#spend.headroom(key, now);
    if (limit && limit.remainingMicros < request.minMicros) return { ok: false, ...limit };

    const account = this.#memory.account!;
    const balance = account.balance_micros;
    const available = balance - holds.heldMicros;
    if (available < request.minMicros) {
      return { ok: false, reason: 'insufficient_credits', availableMicros: Math.max(0, available), neededMicros: request.minMicros, fundToken: fundTokenFor(key, account.fund_token) };
    }

    const hold = this.place(
      { id: sortableId('hold'), keyId: key.id, memberAccountId: null },
      Math.min(request.maxMicros, available, limit?.remainingMicros ?? Infinity),
      request,
      now,
    );
    if (perMinute !== undefined) this.#rate.note(request.purpose, now);
    const room = Math.min(available, limit?.remainingMicros ?? Infinity) - hold.amount_micros;
    return { ok: true, accountId: account.id, keyId: key.id, holdId: hold.id, amountMicros: hold.amount_micros, availableMicros: room };
  }

  /**
   * Writes an open hold of `amountMicros` decided by the caller (`hold` above, or an
   * organization's member hold, D29): its row and its ledger row in one transaction.
   */
  place(
    owner: { id: string; keyId: string | null; memberAccountId: string | null },
    amountMicros: number,
    request: Pick<HoldRequest, 'purpose' | 'requestId' | 'ttlMs'>,
    now: number,
  ): OpenHold {
    return this.placeAll([{ owner, amountMicros, request }], now)[0]!;
  }

  /**
   * Writes open holds decided by the caller, all in one transaction (an organization's pooled
   * holds, D29, `Organization.grantPool`: one commit for a refill, not one per hold).
   */
  placeAll(
    holds: { owner: { id: string; keyId: string | null; memberAccountId: string | null }; amountMicros: number; request: Pick<HoldRequest, 'purpose' | 'requestId' | 'ttlMs'> }[],
    now: number,
  ): OpenHold[] {
    const placed = holds.map(({ owner, amountMicros, request }): OpenHold => ({
      id: owner.id,
      key_id: owner.keyId,
      amount_micros: amountMicros,
      purpose: request.purpose,
      request_id: request.requestId ?? null,
      created_at: now,
      expires_at: now + (request.ttlMs ?? DEFAULT_HOLD_TTL_MS),
      member_account_id: owner.memberAccountId,
    }));
    const balance = this.#memory.account!.balance_micros;
    this.#storage.transactionSync(() => {
      for (const hold of placed) {
        run(this.#storage, SQL.insertHold, hold.id, hold.key_id, hold.amount_micros, hold.purpose, hold.request_id, now, hold.expires_at, hold.member_account_id);
        this.#row('hold', hold.amount_micros, balance, hold, null, `hold:${hold.id}`, hold.purpose, now);
      }
    });
    for (const hold of placed) {
      this.#memory.holds.add(hold);
      this.#alarm.wakeBy(hold.expires_at);
    }
    return placed;
  }

  /**
   * Charges the actual cost of a hold, at most the hold (D33), and frees the rest; what the cost
   * passes the hold by is the operator's, a `loss` row (`#recordLoss`). Idempotent: a repeated
   * settlement of the same hold returns the first result and charges nothing more.
   */
  settle(holdId: string, chargeMicros: number, now: number): SettleResult {
    const cost = Math.max(0, Math.round(chargeMicros));
    // Like a hold's amounts: a NaN or infinite charge would make the balance unrecoverable.
    if (!Number.isSafeInteger(cost)) throw new Error(`invalid charge: ${chargeMicros} micro-dollars`);
    const open = this.#memory.holds.get(holdId);
    if (!open) return this.#settleClosed(holdId, cost, now);
    const account = this.#memory.account!;
    const charge = Math.min(cost, open.amount_micros);
    const balance = account.balance_micros - charge;
    const freed = open.amount_micros - charge;
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setBalance, balance);
      run(this.#storage, SQL.deleteHold, holdId);
      run(
        this.#storage,
        SQL.insertLedger2,
        ...['charge', -charge, balance, holdId, open.key_id, null, `charge:${holdId}`, open.purpose, open.request_id, now, open.member_account_id],
        ...['release', freed, balance, holdId, open.key_id, null, `release:${holdId}`, 'settled', open.request_id, now, open.member_account_id],
      );
      this.#recordLoss(open, cost, charge, balance, now);
      this.#spend.count(open.key_id, charge, now, open.member_account_id);
    });
    account.balance_micros = balance;
    this.#memory.holds.remove(open);
    this.#spend.memberCharged(open.member_account_id, charge, now);
    return { ok: true, holdId, chargedMicros: charge, balanceMicros: balance, applied: true };
  }

  /**
   * Frees a hold without charging: the upstream failed, or (with `operatorReason`) an operator
   * repairs an orphaned hold, which a late settlement may still charge. Idempotent; a settled
   * hold stays settled.
   */
  release(holdId: string, now: number, operatorReason?: string): ReleaseResult {
    const hold = this.#memory.holds.get(holdId);
    if (hold) this.#close(hold, operatorReason === undefined ? RELEASED : OPERATOR + operatorReason, now);
    return { released: hold !== undefined, balanceMicros: this.#memory.account?.balance_micros ?? 0 };
  }

  /** D29: closes a pooled hold its member gives back unused (`org-hold-pool.ts`); false when it is not open. */
  returnUnused(holdId: string, now: number): boolean {
    const hold = this.#memory.holds.get(holdId);
    if (hold) this.#close(hold, UNUSED, now);
    return hold !== undefined;
  }

  /**
   * Moves an open hold's deadline to `ttlMs` from now (a lease renewed by a running request);
   * never shortens it. The alarm needs no change: it wakes for the old deadline at the latest
   * and then waits for the next.
   */
  extend(holdId: string, ttlMs: number, now: number): ExtendResult {
    const hold = this.#memory.holds.get(holdId);
    if (!hold) return { extended: false, expiresAt: null };
    const expiresAt = Math.max(hold.expires_at, now + ttlMs);
    if (expiresAt !== hold.expires_at) {
      run(this.#storage, SQL.extendHold, expiresAt, holdId);
      hold.expires_at = expiresAt;
    }
    return { extended: true, expiresAt };
  }

  /** Releases the holds whose time is up (their callers crashed). */
  expire(now: number): void {
    for (const hold of this.#memory.holds.expiredAt(now)) this.#close(hold, EXPIRED, now);
  }

  /** Whether this account ever had the hold (open or closed). */
  knows(holdId: string): boolean {
    return this.#memory.holds.get(holdId) !== undefined || run(this.#storage, SQL.ledgerKeyExists, `hold:${holdId}`).length > 0;
  }

  /** How many holds expired and were never charged: each is a request whose caller died. */
  expiredUnsettled(): number {
    return run<{ count: number }>(this.#storage, SQL.expiredUnsettled)[0]?.count ?? 0;
  }

  /** Adds (or, for a negative operator correction, removes) money. Idempotent by key. */
  credit(request: CreditRequest, now: number): { applied: boolean; balanceMicros: number } {
    if (!Number.isSafeInteger(request.amountMicros)) throw new Error(`invalid credit: ${request.amountMicros} micro-dollars`);
    const row = this.#memory.account!;
    if (run(this.#storage, SQL.ledgerKeyExists, request.idempotencyKey).length > 0) return { applied: false, balanceMicros: row.balance_micros };
    const funding = request.source !== 'welcome' && request.amountMicros > 0;
    const next: AccountRow = {
      ...row,
      balance_micros: row.balance_micros + request.amountMicros,
      funded_at: funding && row.funded_at === null ? now : row.funded_at,
      expires_at: funding ? null : row.expires_at,
      // Card money received while unclaimed (the cap); a refund or dispute taken back does not free the cap.
      card_funded_micros: row.card_funded_micros + (request.source === 'card' && request.amountMicros > 0 ? request.amountMicros : 0),
    };
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setFunding, next.balance_micros, next.funded_at, next.expires_at, next.card_funded_micros);
      this.#row('credit', request.amountMicros, next.balance_micros, null, request.source, request.idempotencyKey, request.note ?? null, now);
    });
    this.#memory.account = next;
    return { applied: true, balanceMicros: next.balance_micros };
  }

  /**
   * An operator's debit (`amountMicros` < 0): like `credit`, once per idempotency key, but refused
   * when it would take the available balance (the balance less open holds) below zero, so a typo
   * cannot leave a debt and a settlement cannot overdraw what a hold set aside. A replayed key
   * answers as applied before, without a check.
   */
  debit(request: CreditRequest, now: number): Result<{ applied: boolean; balanceMicros: number }, { reason: 'exceeds_available'; availableMicros: number }> {
    if (!Number.isSafeInteger(request.amountMicros) || request.amountMicros >= 0) throw new Error(`invalid debit: ${request.amountMicros} micro-dollars`);
    const row = this.#memory.account!;
    if (run(this.#storage, SQL.ledgerKeyExists, request.idempotencyKey).length > 0) return { ok: true, applied: false, balanceMicros: row.balance_micros };
    const available = row.balance_micros - this.#memory.holds.heldMicros;
    if (available + request.amountMicros < 0) return { ok: false, reason: 'exceeds_available', availableMicros: Math.max(0, available) };
    return { ok: true, ...this.credit(request, now) };
  }

  /** An operator's act of amount 0 on a key (created, changed, revoked): an `audit` row naming the key, with what was done. */
  auditKey(keyId: string, note: string, idempotencyKey: string, now: number): void {
    run(this.#storage, SQL.insertLedger, 'audit', 0, this.#memory.account!.balance_micros, null, keyId, 'operator', idempotencyKey, note, null, now, null);
  }

  /** Up to `limit` ledger rows older than the row `before` (the newest without it), newest first. */
  page(limit: number, before?: number): LedgerPage {
    const entries = this.#db
      .select({
        seq: ledger.seq,
        kind: ledger.kind,
        amountMicros: ledger.amountMicros,
        balanceAfterMicros: ledger.balanceAfterMicros,
        holdId: ledger.holdId,
        keyId: ledger.keyId,
        source: ledger.source,
        note: ledger.note,
        requestId: ledger.requestId,
        createdAt: ledger.createdAt,
        memberAccountId: ledger.memberAccountId,
      })
      .from(ledger)
      .where(before === undefined ? undefined : lt(ledger.seq, before))
      .orderBy(desc(ledger.seq))
      .limit(limit + 1)
      .all();
    const more = entries.length > limit;
    if (more) entries.pop();
    return { entries, nextBefore: more ? entries[entries.length - 1]!.seq : null };
  }

  /**
   * A settlement for a hold that is no longer open, read from the ledger: a repeat returns the
   * first charge, a released hold refuses, and an expired hold is still charged, because the
   * upstream did the work (its release is already in the ledger).
   */
  #settleClosed(holdId: string, charge: number, now: number): SettleResult {
    const rows = run<{ kind: LedgerKind; amount_micros: number; key_id: string | null; note: string | null; request_id: string | null; member_account_id: string | null }>(
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
    const closedBy = row('release')?.note ?? '';
    if (closedBy !== EXPIRED && !closedBy.startsWith(OPERATOR)) return { ok: false, reason: 'hold_released' };

    // The hold row's amount is what was set aside: a late charge is bound by it too (D33).
    const bounded = Math.min(charge, held.amount_micros);
    const balance = account.balance_micros - bounded;
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setBalance, balance);
      const hold = { id: holdId, key_id: held.key_id, request_id: held.request_id, member_account_id: held.member_account_id };
      this.#row('charge', -bounded, balance, hold, null, `charge:${holdId}`, held.note, now);
      this.#recordLoss(hold, charge, bounded, balance, now);
      this.#spend.count(held.key_id, bounded, now, held.member_account_id);
    });
    account.balance_micros = balance;
    this.#spend.memberCharged(held.member_account_id, bounded, now);
    return { ok: true, holdId, chargedMicros: bounded, balanceMicros: balance, applied: true };
  }

  /**
   * D33: the part of an upstream's bill beyond the hold is the operator's loss, not the account's
   * debt. Its `loss` row moves no money (the balance after it is the charge's) and says both
   * amounts; the operator finds them in the account's ledger and `loss_usd` of its admin view.
   */
  #recordLoss(hold: Pick<OpenHold, 'id' | 'key_id' | 'request_id' | 'member_account_id'>, cost: number, charged: number, balance: number, now: number): void {
    if (cost <= charged) return;
    const note = `billed ${cost} micro-dollars, ${cost - charged} beyond the hold of ${charged}`;
    this.#row('loss', cost - charged, balance, hold, null, `loss:${hold.id}`, note, now);
  }

  /** The sum of the account's `loss` rows (D33): what upstreams billed beyond its holds. */
  losses(): number {
    return run<{ total: number | null }>(this.#storage, SQL.losses)[0]?.total ?? 0;
  }

  /** Closes a hold without a charge; `why` is the release row's note. */
  #close(hold: OpenHold, why: string, now: number): void {
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.deleteHold, hold.id);
      this.#row('release', hold.amount_micros, this.#memory.account!.balance_micros, hold, null, `release:${hold.id}`, why, now);
    });
    this.#memory.holds.remove(hold);
  }

  #row(
    kind: LedgerKind,
    amount: number,
    balanceAfter: number,
    hold: Pick<OpenHold, 'id' | 'key_id' | 'request_id' | 'member_account_id'> | null,
    source: CreditSource | null,
    idempotencyKey: string,
    note: string | null,
    now: number,
  ): void {
    const [holdId, keyId, requestId, memberId] = hold ? [hold.id, hold.key_id, hold.request_id, hold.member_account_id] : [null, null, null, null];
    run(this.#storage, SQL.insertLedger, kind, amount, balanceAfter, holdId, keyId, source, idempotencyKey, note, requestId, now, memberId);
  }
}
