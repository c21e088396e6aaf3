import { desc, eq, max } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import type { OffSessionCharger, OffSessionOutcome } from '../../src/funding/off-session';
import { MICROS_PER_USD } from '../../src/money';
import type { ExpiryAlarm } from './alarm';
import type { Ledger } from './ledger';
import type { AccountMemory } from './memory';
import type * as schema from './schema';
import { topUps, topUpSettings } from './schema';
import type { Result } from './types';

/** The amount of one top-up: $5 to $1,000, whole cents. */
export const TOP_UP_MIN_MICROS = 5 * MICROS_PER_USD;
export const TOP_UP_MAX_MICROS = 1_000 * MICROS_PER_USD;
/** The threshold: $0 to $10,000, whole cents. */
export const THRESHOLD_MAX_MICROS = 10_000 * MICROS_PER_USD;
/** Stripe unreachable: the same request again 1, 2, 4, 8 and 16 minutes later, then the top-up fails. */
const RETRY_BASE_MS = 60_000;
const MAX_ATTEMPTS = 6;
const RECENT = 5;
const CENT = 10_000;

type SettingsRow = typeof topUpSettings.$inferSelect;
type TopUpRow = typeof topUps.$inferSelect;

/** A card saved at Checkout for off-session charges. */
export interface SavedCard {
  customerId: string;
  paymentMethodId: string;
  brand: string | null;
  last4: string | null;
}

export interface TopUpRule {
  thresholdMicros: number;
  amountMicros: number;
}

export type TopUpRecord = Pick<TopUpRow, 'n' | 'status' | 'amountMicros' | 'paymentIntentId' | 'failureCode' | 'failureMessage' | 'createdAt' | 'endedAt'>;

/** Auto top-up as its page shows it. */
export interface TopUpView {
  enabled: boolean;
  /** 0 until the rule is first set. */
  thresholdMicros: number;
  amountMicros: number;
  card: { brand: string | null; last4: string | null } | null;
  /** The Stripe Customer the saved card belongs to; a new card is saved to the same one. */
  customerId: string | null;
  /** The failed top-up that turned auto top-up off; null once the human has acted. */
  stoppedBy: TopUpRecord | null;
  /** The top-up being charged now, if any. */
  pending: TopUpRecord | null;
  /** The latest top-ups, newest first. */
  recent: TopUpRecord[];
}

export type TopUpRefusal = { reason: 'no_card' } | { reason: 'invalid_amount' } | { reason: 'invalid_threshold' };

/**
 * Auto top-up: when a charge leaves the balance below the threshold and the rule is on, one
 * top-up starts (a `pending` row; never a second while one is pending, and this object applies
 * calls one at a time, so concurrent settlements start one) and the alarm is asked to charge it.
 * The alarm charges the saved card off-session under the top-up's own idempotency key: success
 * credits `stripe:<payment intent>` (source `card`); a refusal records why and turns the rule off
 * until the human acts (`enable` or `saveCard`), so a failing card is never charged in a loop. Only
 * Stripe being unreachable is retried, with backoff and the same key, so a top-up whose answer
 * was lost (a crash mid-call) is charged once.
 */
export class AutoTopUp {
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  readonly #memory: AccountMemory;
  readonly #alarm: ExpiryAlarm;
  readonly #ledger: Ledger;
  readonly #charge: OffSessionCharger;
  #settings: SettingsRow | null = null;
  #pending: TopUpRow | null = null;
  #lastN = 0;
  /** The charge under way in this instance, so an alarm that runs again meanwhile waits for it. */
  #running: Promise<void> | null = null;

  constructor(db: DrizzleSqliteDODatabase<typeof schema>, memory: AccountMemory, alarm: ExpiryAlarm, ledger: Ledger, charge: OffSessionCharger) {
    this.#db = db;
    this.#memory = memory;
    this.#alarm = alarm;
    this.#ledger = ledger;
    this.#charge = charge;
  }

  /** Reads the rule and the pending top-up; asks the alarm for a top-up left pending (a restart). */
  load(): void {
    this.#settings = this.#db.select().from(topUpSettings).where(eq(topUpSettings.id, 1)).get() ?? null;
    this.#pending = this.#db.select().from(topUps).where(eq(topUps.status, 'pending')).get() ?? null;
    this.#lastN = this.#db.select({ n: max(topUps.n) }).from(topUps).get()?.n ?? 0;
    if (this.#pending) this.#alarm.wakeBy(this.#pending.nextAttemptAt);
  }

  clear(): void {
    this.#settings = null;
    this.#pending = null;
    this.#lastN = 0;
  }

  /**
   * After a charge left the balance at `balanceMicros`: starts a top-up when the rule is on, the
   * balance is below its threshold and none is pending. Reads memory only, unless it starts one.
   */
  afterCharge(balanceMicros: number, now: number): boolean {
    const rule = this.#settings;
    if (!rule?.enabled || this.#pending || balanceMicros >= rule.thresholdMicros || !rule.customerId || !rule.paymentMethodId) return false;
    const row: TopUpRow = {
      n: this.#lastN + 1,
      status: 'pending',
      amountMicros: rule.amountMicros,
      customerId: rule.customerId,
      paymentMethodId: rule.paymentMethodId,
      attempts: 0,
      nextAttemptAt: now,
      paymentIntentId: null,
      failureCode: null,
      failureMessage: null,
      createdAt: now,
      endedAt: null,
    };
    this.#db.insert(topUps).values(row).run();
    this.#pending = row;
    this.#lastN = row.n;
    this.#alarm.wakeBy(now);
    return true;
  }

  /** The alarm's part: charges the pending top-up if it is due; a second call meanwhile waits for the first. */
  runDue(now: number): Promise<void> {
    if (this.#running) return this.#running;
    const pending = this.#pending;
    if (!pending) return Promise.resolve();
    if (pending.nextAttemptAt > now) {
      this.#alarm.wakeBy(pending.nextAttemptAt);
      return Promise.resolve();
    }
    this.#running = this.#chargePending(pending, now).finally(() => (this.#running = null));
    return this.#running;
  }

  /** Stores the card saved at Checkout; a rule stopped by a failure starts again with it. */
  saveCard(card: SavedCard, now: number): TopUpView {
    const resume = this.#settings?.stoppedBy != null && this.#settings.amountMicros > 0;
    this.#upsert({ customerId: card.customerId, paymentMethodId: card.paymentMethodId, cardBrand: card.brand, cardLast4: card.last4, ...(resume ? { enabled: true, stoppedBy: null } : {}) }, now);
    return this.view();
  }

  /** Turns the rule on (or changes it); needs a saved card. Ends a stop by a failure. */
  enable(rule: TopUpRule, now: number): Result<{ view: TopUpView }, TopUpRefusal> {
    const wholeCents = (micros: number) => Number.isSafeInteger(micros) && micros % CENT === 0;
    if (!wholeCents(rule.amountMicros) || rule.amountMicros < TOP_UP_MIN_MICROS || rule.amountMicros > TOP_UP_MAX_MICROS) return { ok: false, reason: 'invalid_amount' };
    if (!wholeCents(rule.thresholdMicros) || rule.thresholdMicros < 0 || rule.thresholdMicros > THRESHOLD_MAX_MICROS) return { ok: false, reason: 'invalid_threshold' };
    if (!this.#settings?.paymentMethodId) return { ok: false, reason: 'no_card' };
    this.#upsert({ enabled: true, thresholdMicros: rule.thresholdMicros, amountMicros: rule.amountMicros, stoppedBy: null }, now);
    return { ok: true, view: this.view() };
  }

  /** Turns the rule off; a top-up already being charged finishes. */
  disable(now: number): TopUpView {
    if (this.#settings) this.#upsert({ enabled: false, stoppedBy: null }, now);
    return this.view();
  }

  view(): TopUpView {
    const s = this.#settings;
    const recent = this.#db.select().from(topUps).orderBy(desc(topUps.n)).limit(RECENT).all().map(record);
    const stoppedBy = s?.stoppedBy == null ? null : (this.#db.select().from(topUps).where(eq(topUps.n, s.stoppedBy)).get() ?? null);
    return {
      enabled: s?.enabled ?? false,
      thresholdMicros: s?.thresholdMicros ?? 0,
      amountMicros: s?.amountMicros ?? 0,
      card: s?.paymentMethodId ? { brand: s.cardBrand, last4: s.cardLast4 } : null,
      customerId: s?.customerId ?? null,
      stoppedBy: stoppedBy && record(stoppedBy),
      pending: this.#pending && record(this.#pending),
      recent,
    };
  }

  async #chargePending(pending: TopUpRow, now: number): Promise<void> {
    const account = this.#memory.account;
    if (!account) return;
    // Counted before the call: a crash during it still counts the attempt.
    const attempts = pending.attempts + 1;
    this.#db.update(topUps).set({ attempts }).where(eq(topUps.n, pending.n)).run();
    pending.attempts = attempts;
    const outcome = await this.#charge({ accountId: account.id, n: pending.n, amountMicros: pending.amountMicros, customerId: pending.customerId, paymentMethodId: pending.paymentMethodId });
    // The account may have been deleted while Stripe answered.
    if (this.#pending !== pending || !this.#memory.account) return;
    this.#conclude(pending, outcome, attempts, now);
  }

  /** Records what Stripe answered: a credit, a later attempt, or a failure that stops the rule. */
  #conclude(pending: TopUpRow, outcome: OffSessionOutcome, attempts: number, now: number): void {
    if (outcome.ok) {
      const pi = outcome.paymentIntentId;
      this.#ledger.credit({ amountMicros: outcome.amountMicros, idempotencyKey: `stripe:${pi}`, source: 'card', note: `auto top-up ${pending.n}, PaymentIntent ${pi}` }, now);
      this.#end(pending, { status: 'succeeded', paymentIntentId: pi, failureMessage: null, endedAt: now });
    } else if (outcome.retry && attempts < MAX_ATTEMPTS) {
      const nextAttemptAt = now + RETRY_BASE_MS * 2 ** (attempts - 1);
      this.#db.update(topUps).set({ nextAttemptAt, failureMessage: outcome.message }).where(eq(topUps.n, pending.n)).run();
      pending.nextAttemptAt = nextAttemptAt;
      this.#alarm.wakeBy(nextAttemptAt);
    } else {
      const [code, message, paymentIntentId] = outcome.retry ? ['stripe_unreachable', `The card processor could not be reached: ${outcome.message}`, null] : [outcome.code, outcome.message, outcome.paymentIntentId];
      this.#end(pending, { status: 'failed', failureCode: code, failureMessage: message, paymentIntentId, endedAt: now });
      this.#upsert({ enabled: false, stoppedBy: pending.n }, now);
    }
  }

  #end(pending: TopUpRow, patch: Partial<TopUpRow>): void {
    this.#db.update(topUps).set(patch).where(eq(topUps.n, pending.n)).run();
    this.#pending = null;
  }

  #upsert(patch: Partial<Omit<SettingsRow, 'id' | 'updatedAt'>>, now: number): void {
    const set = { ...patch, updatedAt: now };
    this.#settings = this.#db.insert(topUpSettings).values({ id: 1, ...set }).onConflictDoUpdate({ target: topUpSettings.id, set }).returning().get() ?? null;
  }
}

function record(row: TopUpRow): TopUpRecord {
  const { n, status, amountMicros, paymentIntentId, failureCode, failureMessage, createdAt, endedAt } = row;
  return { n, status, amountMicros, paymentIntentId, failureCode, failureMessage, createdAt, endedAt };
}
