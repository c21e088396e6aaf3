import type { OpenHolds } from './holds';
import { hasOwnLimits, type KeyTree } from './key-tree';
import { spendPeriods, TOTAL_PERIOD } from './periods';
import { run, SQL, type KeyRow } from './statements';
import type { HoldFailure, KeyLimit } from './types';

/** The key limit that binds a hold: how much it still allows, and when that grows again. */
export type Headroom = Extract<HoldFailure, { reason: 'daily_limit' | 'monthly_limit' | 'total_limit' }>;

/** The limit among `limits` that allows the least; null for none. */
export function tightest(limits: KeyLimit[]): Headroom | null {
  let out: Headroom | null = null;
  for (const { reason, remainingMicros, retryAfterSeconds } of limits) {
    if (!out || remainingMicros < out.remainingMicros) out = { reason, remainingMicros, retryAfterSeconds };
  }
  return out;
}

/**
 * Per-key spend counters (`key_spend`) and the headroom they leave under a key's limits. Keys
 * without limits keep no counters; a key that gains a limit has its counters rebuilt from the
 * ledger (`recount`).
 */
export class SpendCounters {
  readonly #storage: DurableObjectStorage;
  readonly #holds: OpenHolds;
  readonly #tree: KeyTree;
  /** Whether a key (by id) has any spend limit, so a settlement knows whether to count its spend. */
  #limited = new Map<string, boolean>();
  /** D29, in an organization: each member's charges in one UTC month (its cap), as committed; read on first use. */
  #memberMonth = new Map<string, { month: string; spent: number }>();

  constructor(storage: DurableObjectStorage, holds: OpenHolds, tree: KeyTree) {
    this.#storage = storage;
    this.#holds = holds;
    this.#tree = tree;
  }

  /**
   * Counts a charge against its key's limits; runs inside the caller's transaction. In an
   * organization (D29) a member's charge is counted for the member's cap and its key's limits.
   */
  count(keyId: string | null, charge: number, now: number, memberAccountId: string | null = null): void {
    if (memberAccountId !== null) {
      const p = spendPeriods(now);
      const key = keyId ?? '';
      run(this.#storage, SQL.addMemberSpend, memberAccountId, key, p.day, charge, memberAccountId, key, p.month, charge, memberAccountId, key, TOTAL_PERIOD, charge);
      return;
    }
    if (keyId === null || !this.#keyLimited(keyId)) return;
    const periods = spendPeriods(now);
    run(this.#storage, SQL.addSpend, keyId, periods.day, charge, keyId, periods.month, charge, keyId, TOTAL_PERIOD, charge);
  }

  /** D29, in an organization: a member's charges in the UTC month of `now`, every key of it (its monthly cap). */
  memberSpentThisMonth(memberAccountId: string, now: number): number {
    const month = spendPeriods(now).month;
    const known = this.#memberMonth.get(memberAccountId);
    if (known?.month === month) return known.spent;
    const spent = run<{ spent: number }>(this.#storage, SQL.memberSpent, memberAccountId, month)[0]?.spent ?? 0;
    this.#memberMonth.set(memberAccountId, { month, spent });
    return spent;
  }

  /** A member's charge `count` wrote, once its transaction has committed: the month's figure in memory follows it. */
  memberCharged(memberAccountId: string | null, charge: number, now: number): void {
    if (memberAccountId === null) return;
    const known = this.#memberMonth.get(memberAccountId);
    if (known?.month === spendPeriods(now).month) known.spent += charge;
    else this.#memberMonth.delete(memberAccountId);
  }

  /**
   * D29: what the account's keys were charged in an organization it has left, as the organization
   * reports it now. Each figure only grows there, so the growth since the last report is added to
   * the key's counters (for a counted key) and the figure is kept (`org_key_spend`): a charge that
   * settles there after the leave is counted at the next report, every charge once, and an older
   * report arriving late adds nothing. Runs inside the caller's transaction.
   */
  absorb(organizationId: string, rows: { keyId: string; period: string; spentMicros: number }[]): void {
    for (const row of rows) {
      const known = run<{ spent_micros: number }>(this.#storage, SQL.orgKeySpent, organizationId, row.keyId, row.period)[0]?.spent_micros ?? 0;
      const growth = row.spentMicros - known;
      if (growth <= 0) continue;
      run(this.#storage, SQL.setOrgKeySpent, organizationId, row.keyId, row.period, row.spentMicros);
      if (this.#keyLimited(row.keyId)) run(this.#storage, SQL.addSpendOne, row.keyId, row.period, growth);
    }
  }

  /**
   * D29: the account rejoins an organization that counts its keys' earlier spend there again (its
   * key room subtracts it): what was absorbed from it leaves the counters here. Runs inside the
   * caller's transaction.
   */
  returnAbsorbed(organizationId: string): void {
    for (const row of run<{ key_id: string; period: string; spent_micros: number }>(this.#storage, SQL.orgKeySpendOf, organizationId)) {
      run(this.#storage, SQL.subtractSpend, row.spent_micros, row.key_id, row.period);
    }
    run(this.#storage, SQL.deleteOrgKeySpend, organizationId);
  }

  /** D29: each key's charges in organizations the account has left (their `total`), for `spent_usd`. */
  absorbedTotals(): Map<string, number> {
    return new Map(run<{ key_id: string; spent: number }>(this.#storage, SQL.orgKeySpendTotals).map((row) => [row.key_id, row.spent]));
  }

  /** Rebuilds a key's spend counters from its ledger charges, for a key that has just been given limits. */
  recount(keyId: string, now: number): void {
    const periods = spendPeriods(now);
    // Its ledger's charges, plus what organizations it has left reported of it (D29).
    const absorbed = (period: string) => run<{ spent: number }>(this.#storage, SQL.orgKeySpentIn, keyId, period)[0]!.spent;
    const spentSince = (from: number, period: string) => run<{ spent: number }>(this.#storage, SQL.chargedSince, keyId, from)[0]!.spent + absorbed(period);
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.clearSpend, keyId);
      run(
        this.#storage,
        SQL.addSpend,
        ...[keyId, periods.day, spentSince(periods.dayStart, periods.day)],
        ...[keyId, periods.month, spentSince(periods.monthStart, periods.month)],
        ...[keyId, TOTAL_PERIOD, spentSince(0, TOTAL_PERIOD)],
      );
    });
  }

  /**
   * The tightest of the spend limits that bind the key (its own and those of the keys above it,
   * D35), counting what is spent and what open holds keep; null without limits.
   */
  headroom(key: KeyRow, now: number): Headroom | null {
    return tightest(this.limits(key, now));
  }

  /**
   * Each spend limit that binds the key, with what it still allows here, named by period: the
   * key's own and, for a sub-key, those of every key above it as they are now (D35). A limit counts
   * the spend and open holds of its key and of every key below it (`keyIds` names them when there
   * are several). What a member passes to its organization (D29), which subtracts their spend and
   * holds there.
   */
  limits(key: KeyRow, now: number): KeyLimit[] {
    const holders = [key, ...(this.#tree.ancestors(key) ?? [])].filter(hasOwnLimits);
    if (holders.length === 0) return [];
    const periods = spendPeriods(now);
    const names = { day: periods.day, month: periods.month, total: TOTAL_PERIOD };
    const retryAfter = { day: periods.secondsToNextDay, month: periods.secondsToNextMonth, total: 86_400 };
    const out: KeyLimit[] = [];
    for (const holder of holders) {
      const family = this.#tree.family(holder.id);
      const spent = new Map(
        run<{ period: string; spent_micros: number }>(this.#storage, SQL.familySpend, JSON.stringify(family), names.day, names.month, names.total).map((row) => [
          row.period,
          row.spent_micros,
        ]),
      );
      const held = family.length === 1 ? this.#holds.heldBy(holder.id) : this.#holds.heldByAny(new Set(family));
      const limits = [
        { reason: 'daily_limit', limit: holder.daily_limit_micros, period: 'day' },
        { reason: 'monthly_limit', limit: holder.monthly_limit_micros, period: 'month' },
        { reason: 'total_limit', limit: holder.total_limit_micros, period: 'total' },
      ] as const;
      for (const { reason, limit, period } of limits) {
        if (limit === null) continue;
        const remaining = Math.max(0, limit - (spent.get(names[period]) ?? 0) - held);
        out.push({ reason, period: names[period], remainingMicros: remaining, retryAfterSeconds: retryAfter[period], ...(family.length > 1 ? { keyIds: family } : {}) });
      }
    }
    return out;
  }

  /** Forgets which keys have limits, after a key's limits changed. */
  forgetLimits(): void {
    this.#limited.clear();
  }

  #keyLimited(keyId: string): boolean {
    let limited = this.#limited.get(keyId);
    if (limited === undefined) {
      limited = run<{ limited: number }>(this.#storage, SQL.keyLimited, keyId)[0]?.limited === 1;
      this.#limited.set(keyId, limited);
    }
    return limited;
  }
}
