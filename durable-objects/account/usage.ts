import type { CreditSource } from './schema';

/** One charge: what a request cost, with the key, what it was for and the request behind it. */
export interface ChargeEntry {
  seq: number;
  amountMicros: number;
  keyId: string | null;
  /** The hold's purpose: `chat:<model>`, `image:<model>`, `scrape`, ... */
  purpose: string | null;
  requestId: string | null;
  createdAt: number;
}

/** Which charges a page or an export shows: one key, one model (any kind of request), or all. */
export interface ChargeFilter {
  keyId?: string;
  model?: string;
}

/** A page of charges, newest first; `nextBefore` continues it (null on the last page). */
export interface ChargePage {
  entries: ChargeEntry[];
  nextBefore: number | null;
}

/** Charges of one UTC day and one purpose, summed. */
export interface DailySpendRow {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  purpose: string | null;
  micros: number;
}

/** A credit: money in, from a card, USDC, the operator or the welcome grant. */
export interface CreditEntry {
  seq: number;
  amountMicros: number;
  source: CreditSource | null;
  note: string | null;
  createdAt: number;
}

const Q = {
  /**
   * The newest charges older than `before` (?1), of key ?2 (or any) and model ?3 (or any: the
   * model is the purpose after its kind, `chat:` or `image:`; a purpose without a kind is itself).
   */
  charges:
    'SELECT seq, amount_micros, key_id, note, request_id, created_at FROM ledger ' +
    "WHERE seq < ?1 AND kind = 'charge' AND (?2 IS NULL OR key_id = ?2) " +
    "AND (?3 IS NULL OR note = ?3 OR (instr(note, ':') > 0 AND substr(note, instr(note, ':') + 1) = ?3)) " +
    'ORDER BY seq DESC LIMIT ?4',
  /**
   * Charges since ?1 (ms), summed per UTC day and purpose. The rows are found from the newest
   * backwards: the last row older than ?1 bounds the range (ledger rows are written in time order).
   */
  dailySpend:
    "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, note AS purpose, -SUM(amount_micros) AS micros FROM ledger " +
    "WHERE seq > COALESCE((SELECT seq FROM ledger WHERE created_at < ?1 ORDER BY seq DESC LIMIT 1), 0) AND kind = 'charge' " +
    'GROUP BY day, note ORDER BY day',
  credits: "SELECT seq, amount_micros, source, note, created_at FROM ledger WHERE kind = 'credit' ORDER BY seq DESC LIMIT ?1",
} as const;

/**
 * What the ledger says of the account's use of its money, for the dashboard: charges, filtered
 * and paged; spend per day and purpose; credits. Read-only, constant SQL. Every read walks the
 * ledger backwards from its newest row (its primary key), so it costs the rows it returns or
 * sums, not the account's whole history.
 */
export class Usage {
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** Up to `limit` charges matching `filter` older than the row `before` (the newest without it), newest first. */
  charges(filter: ChargeFilter, limit: number, before?: number): ChargePage {
    type Row = { seq: number; amount_micros: number; key_id: string | null; note: string | null; request_id: string | null; created_at: number };
    const rows = this.#storage.sql
      .exec<Row>(Q.charges, before ?? Number.MAX_SAFE_INTEGER, filter.keyId ?? null, filter.model ?? null, limit + 1)
      .toArray();
    const more = rows.length > limit;
    if (more) rows.pop();
    const entries = rows.map((row) => ({
      seq: row.seq,
      amountMicros: -row.amount_micros,
      keyId: row.key_id,
      purpose: row.note,
      requestId: row.request_id,
      createdAt: row.created_at,
    }));
    return { entries, nextBefore: more ? entries[entries.length - 1]!.seq : null };
  }

  /** What was charged since `since` (ms), per UTC day and purpose, oldest day first. */
  dailySpend(since: number): DailySpendRow[] {
    return this.#storage.sql.exec<{ day: string; purpose: string | null; micros: number }>(Q.dailySpend, since).toArray();
  }

  /** The newest `limit` credits, newest first. */
  credits(limit: number): CreditEntry[] {
    return this.#storage.sql
      .exec<{ seq: number; amount_micros: number; source: CreditSource | null; note: string | null; created_at: number }>(Q.credits, limit)
      .toArray()
      .map((row) => ({ seq: row.seq, amountMicros: row.amount_micros, source: row.source, note: row.note, createdAt: row.created_at }));
  }
}
