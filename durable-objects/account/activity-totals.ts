import { spendPeriods } from './periods';

const DAY_MS = 86_400_000;
/** The overview's rolling window; request records are kept as long (D26), so its counts are whole. */
export const ROLLING_WINDOW_MS = 30 * DAY_MS;

/** Spend and request counts of one window. */
export interface WindowTotals {
  spentMicros: number;
  succeeded: number;
  failed: number;
}

/** The dashboard overview's totals: today and this month (UTC), and the last 30 days. */
export interface ActivityTotals {
  today: WindowTotals;
  month: WindowTotals;
  last30Days: WindowTotals;
}

/** One key's use: its charges over 30 days and in all, and when it was last used (null: never). */
export interface KeyUsage {
  keyId: string;
  spent30DaysMicros: number;
  spentTotalMicros: number;
  lastUsedAt: number | null;
}

const Q = {
  /**
   * Charges summed per window (?1 today, ?2 month, ?3 30 days) since the earliest of them (?4).
   * The rows are found from the newest backwards, as `Usage.dailySpend` does (rows in time order).
   */
  spend:
    'SELECT COALESCE(-SUM(CASE WHEN created_at >= ?1 THEN amount_micros END), 0) AS today, ' +
    'COALESCE(-SUM(CASE WHEN created_at >= ?2 THEN amount_micros END), 0) AS month, ' +
    'COALESCE(-SUM(CASE WHEN created_at >= ?3 THEN amount_micros END), 0) AS rolling FROM ledger ' +
    "WHERE seq > COALESCE((SELECT seq FROM ledger WHERE created_at < ?4 ORDER BY seq DESC LIMIT 1), 0) AND kind = 'charge'",
  /** The account's own requests (as its activity lists them) per status and window, read by the created_at index. */
  requests:
    'SELECT status, SUM(created_at >= ?1) AS today, SUM(created_at >= ?2) AS month, SUM(created_at >= ?3) AS rolling ' +
    'FROM request_records WHERE created_at >= ?4 AND member_account_id IS NULL GROUP BY status',
  /** Every key's charges, in all and since ?1, and its newest: a scan of the ledger, for the keys page only. */
  keyCharges:
    "SELECT key_id, -SUM(amount_micros) AS total, COALESCE(-SUM(CASE WHEN created_at >= ?1 THEN amount_micros END), 0) AS rolling, MAX(created_at) AS last FROM ledger WHERE kind = 'charge' AND key_id IS NOT NULL GROUP BY key_id",
  /** Every key's newest request record (failed ones too: they charged nothing but used the key). */
  keyRequests: 'SELECT key_id, MAX(created_at) AS last FROM request_records WHERE key_id IS NOT NULL GROUP BY key_id',
} as const;

const empty = (): WindowTotals => ({ spentMicros: 0, succeeded: 0, failed: 0 });

/**
 * What the dashboard reads of the account's activity in one call: totals per window from the
 * ledger's charges and the request records, and each key's spend and last use. Read-only.
 */
export class ActivityReader {
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  totals(now: number): ActivityTotals {
    const { dayStart, monthStart } = spendPeriods(now);
    const rollingStart = now - ROLLING_WINDOW_MS;
    const since = Math.min(monthStart, rollingStart);
    const out: ActivityTotals = { today: empty(), month: empty(), last30Days: empty() };
    type Spend = { today: number; month: number; rolling: number };
    const spend = this.#storage.sql.exec<Spend>(Q.spend, dayStart, monthStart, rollingStart, since).one();
    out.today.spentMicros = spend.today;
    out.month.spentMicros = spend.month;
    out.last30Days.spentMicros = spend.rolling;
    type Counts = { status: string; today: number; month: number; rolling: number };
    for (const row of this.#storage.sql.exec<Counts>(Q.requests, dayStart, monthStart, rollingStart, since)) {
      const field = row.status === 'succeeded' ? 'succeeded' : 'failed';
      out.today[field] += row.today;
      out.month[field] += row.month;
      out.last30Days[field] += row.rolling;
    }
    return out;
  }

  /** The use of every key that was charged or made a request; a key absent from it was never used. */
  keyUsage(now: number): KeyUsage[] {
    const byKey = new Map<string, KeyUsage>();
    const entry = (keyId: string) => {
      let usage = byKey.get(keyId);
      if (!usage) byKey.set(keyId, (usage = { keyId, spent30DaysMicros: 0, spentTotalMicros: 0, lastUsedAt: null }));
      return usage;
    };
    type Charges = { key_id: string; total: number; rolling: number; last: number };
    for (const row of this.#storage.sql.exec<Charges>(Q.keyCharges, now - ROLLING_WINDOW_MS)) {
      Object.assign(entry(row.key_id), { spentTotalMicros: row.total, spent30DaysMicros: row.rolling, lastUsedAt: row.last });
    }
    for (const row of this.#storage.sql.exec<{ key_id: string; last: number }>(Q.keyRequests)) {
      const usage = entry(row.key_id);
      usage.lastUsedAt = Math.max(usage.lastUsedAt ?? 0, row.last);
    }
    return [...byKey.values()];
  }
}
