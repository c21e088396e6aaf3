import type { Ledger } from './ledger';
import type { AccountMemory } from './memory';
import type { CreditSource } from './schema';
import { run, SQL } from './statements';

/** A suspension as the operator and the pages see it. */
export interface SuspensionView {
  /** ms since the epoch */
  at: number;
  reason: string;
}

/** Money a card payment gave back (a refund, a lost dispute), taken from the balance. */
export interface CardReversal {
  amountMicros: number;
  /** Derived from Stripe's object (`refund:<re_...>`, `dispute:<du_...>`): a redelivered event debits once. */
  idempotencyKey: string;
  note: string;
  /** Why the account is suspended when the balance cannot cover the debit (D28). */
  suspendReason: string;
  /** The rail whose money went back: `card` unless said (a USDC or x402 credit a reorg took off the chain). */
  source?: 'card' | 'usdc' | 'x402';
}

/** A reversal undone (a failed refund, a dispute won): credited once, and only if `ofKey` was debited. */
export interface CardRestoration {
  amountMicros: number;
  idempotencyKey: string;
  /** The reversal's own key. */
  ofKey: string;
  note: string;
  /** The rail the money came back to: `card` unless said (a reorg's reversal of a USDC or x402 credit that stood after all). */
  source?: 'card' | 'usdc' | 'x402';
}

/** A restoration's outcome; `reversed` says whether `ofKey` had been debited (the restoration is due, or done before). */
export interface RestorationResult {
  applied: boolean;
  balanceMicros: number;
  reversed: boolean;
}

export interface ReversalResult {
  applied: boolean;
  balanceMicros: number;
  suspended: SuspensionView | null;
}

/**
 * D28: a suspended account keeps its balance and can be funded, but every key of it is refused
 * (`Keys.check` reads `suspended_at` from memory, so the check costs the hot path nothing). Each
 * change of state is an `audit` ledger row of amount 0 with its reason, under an idempotency key.
 */
export class Suspension {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;
  readonly #ledger: Ledger;

  constructor(storage: DurableObjectStorage, memory: AccountMemory, ledger: Ledger) {
    this.#storage = storage;
    this.#memory = memory;
    this.#ledger = ledger;
  }

  view(): SuspensionView | null {
    const row = this.#memory.account;
    return row?.suspended_at != null ? { at: row.suspended_at, reason: row.suspended_reason ?? '' } : null;
  }

  /** Suspends the account (a second call keeps the first time and reason, and writes nothing). */
  suspend(reason: string, idempotencyKey: string, source: CreditSource | null, now: number): SuspensionView {
    const row = this.#memory.account!;
    if (row.suspended_at === null) this.#set(now, reason, `suspended: ${reason}`, idempotencyKey, source, now);
    return this.view()!;
  }

  /** Lifts a suspension; nothing is written when the account is not suspended. */
  unsuspend(reason: string, idempotencyKey: string, source: CreditSource | null, now: number): void {
    if (this.#memory.account!.suspended_at !== null) this.#set(null, null, `unsuspended: ${reason}`, idempotencyKey, source, now);
  }

  /**
   * Takes back card money (a refund or a dispute) once per key: the debit may take the balance
   * below zero (the ledger records the truth, and a negative balance refuses every hold), and a
   * debit the balance could not cover suspends the account in the same call.
   */
  reverse(reversal: CardReversal, now: number): ReversalResult {
    if (!Number.isSafeInteger(reversal.amountMicros) || reversal.amountMicros <= 0) throw new Error(`invalid reversal: ${reversal.amountMicros} micro-dollars`);
    const debit = this.#ledger.credit({ amountMicros: -reversal.amountMicros, idempotencyKey: reversal.idempotencyKey, source: reversal.source ?? 'card', note: reversal.note }, now);
    if (debit.applied && debit.balanceMicros < 0) this.suspend(reversal.suspendReason, `suspend:${reversal.idempotencyKey}`, null, now);
    return { ...debit, suspended: this.view() };
  }

  /**
   * Gives back a reversal that did not stand. A suspension stays until the operator lifts it
   * (the operator decides whether the account is trusted again).
   */
  restore(restoration: CardRestoration, now: number): RestorationResult {
    const balanceMicros = this.#memory.account!.balance_micros;
    if (run(this.#storage, SQL.ledgerKeyExists, restoration.ofKey).length === 0) return { applied: false, balanceMicros, reversed: false };
    const credit = this.#ledger.credit({ amountMicros: restoration.amountMicros, idempotencyKey: restoration.idempotencyKey, source: restoration.source ?? 'card', note: restoration.note }, now);
    return { applied: credit.applied, balanceMicros: credit.balanceMicros, reversed: true };
  }

  /** The one transaction that changes the state and writes its audit row; a used key changes nothing. */
  #set(at: number | null, reason: string | null, note: string, idempotencyKey: string, source: CreditSource | null, now: number): void {
    const row = this.#memory.account!;
    if (run(this.#storage, SQL.ledgerKeyExists, idempotencyKey).length > 0) return;
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setSuspended, at, reason);
      run(this.#storage, SQL.insertLedger, 'audit', 0, row.balance_micros, null, null, source, idempotencyKey, note, null, now, null);
    });
    row.suspended_at = at;
    row.suspended_reason = reason;
  }
}
