import { and, count, desc, eq, gte, max, ne, sum } from 'drizzle-orm';
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
const DAY_MS = 86_400_000;

/**
 * Auto top-up's ceiling per UTC day (`AUTO_TOP_UP_DAILY_MAX_USD`, `AUTO_TOP_UP_DAILY_MAX_COUNT`):
 * a rule with a $10,000 threshold and $5 top-ups would otherwise charge the card 2,000 times.
 */
export interface DailyCap {
  maxMicros: number;
  maxCount: number;
}
export const DEFAULT_DAILY_CAP: DailyCap = { maxMicros: 2_000 * MICROS_PER_USD, maxCount: 10 };

/** The ceiling the configuration names; a missing or malformed value keeps its default. */
export function dailyCapOf(env: { AUTO_TOP_UP_DAILY_MAX_USD?: string; AUTO_TOP_UP_DAILY_MAX_COUNT?: string }): DailyCap {
  const usd = Number(env.AUTO_TOP_UP_DAILY_MAX_USD?.trim() || NaN);
  const count = Number(env.AUTO_TOP_UP_DAILY_MAX_COUNT?.trim() || NaN);
  return {
    maxMicros: Number.isFinite(usd) && usd >= 0 ? Math.round(usd * MICROS_PER_USD) : DEFAULT_DAILY_CAP.maxMicros,
    maxCount: Number.isSafeInteger(count) && count >= 0 ? count : DEFAULT_DAILY_CAP.maxCount,
  };
}

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
  readonly #cap: DailyCap;
  #settings: SettingsRow | null = null;
  #pending: TopUpRow | null = null;
  #lastN = 0;
  /** The charge under way in this instance, so an alarm that runs again meanwhile waits for it. */
  #running: Promise<void> | null = null;

  constructor(db: DrizzleSqliteDODatabase<typeof schema>, memory: AccountMemory, alarm: ExpiryAlarm, ledger: Ledger, charge: OffSessionCharger, cap: DailyCap = DEFAULT_DAILY_CAP) {
    this.#db = db;
    this.#cap = cap;
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
   * A top-up past the day's ceiling (`DailyCap`, counting the UTC day's top-ups that were not
   * refused) is not charged: it is recorded as failed (`daily_cap_reached`) and stops the rule
   * until the human acts, as a declined card does.
   */
  afterCharge(balanceMicros: number, now: number): boolean {
    const rule = this.#settings;
    if (!rule?.enabled || this.#pending || balanceMicros >= rule.thresholdMicros || !rule.customerId || !rule.paymentMethodId) return false;
    const capped = this.#overDailyCap(rule.amountMicros, now);
    const row: TopUpRow = {
      n: this.#lastN + 1,
      status: capped ? 'failed' : 'pending',
      amountMicros: rule.amountMicros,
      customerId: rule.customerId,
      paymentMethodId: rule.paymentMethodId,
      attempts: 0,
      nextAttemptAt: now,
      paymentIntentId: null,
      failureCode: capped ? 'daily_cap_reached' : null,
      failureMessage: capped ? capped : null,
      createdAt: now,
      endedAt: capped ? now : null,
    };
    this.#db.insert(topUps).values(row).run();
    this.#lastN = row.n;
    if (capped) {
      this.#upsert({ enabled: false, stoppedBy: row.n }, now);
      return false;
    }
    this.#pending = row;
    this.#alarm.wakeBy(now);
    return true;
  }

  /** Why one more top-up of `amountMicros` would pass the UTC day's ceiling; null when it would not. */
  #overDailyCap(amountMicros: number, now: number): string | null {
    const dayStart = now - (now % DAY_MS);
    const today = this.#db
      .select({ count: count(), micros: sum(topUps.amountMicros) })
      .from(topUps)
      .where(and(gte(topUps.createdAt, dayStart), ne(topUps.status, 'failed')))
      .get();
    const [made, micros] = [today?.count ?? 0, Number(today?.micros ?? 0)];
    if (made + 1 > this.#cap.maxCount) return `Auto top-up charges at most ${this.#cap.maxCount} times a day (UTC); ${made} top-ups were made today.`;
    if (micros + amountMicros > this.#cap.maxMicros) {
      return `Auto top-up charges at most $${(this.#cap.maxMicros / MICROS_PER_USD).toFixed(2)} a day (UTC); $${(micros / MICROS_PER_USD).toFixed(2)} was charged today.`;
    }
    return null;
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
