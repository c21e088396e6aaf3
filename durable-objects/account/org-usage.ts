/** An invite as its organization's owner sees it (never the code: only its hash is kept). */
export interface InviteRow {
  id: string;
  capMicros: number | null;
  autoApprove: boolean;
  createdAt: number;
  revokedAt: number | null;
  /** Joins it made, and how many it may make (null: an invite made before the count, unbounded). */
  uses: number;
  maxUses: number | null;
}

/** Charges of one UTC day made for one member, summed. */
export interface MemberDailySpendRow {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  accountId: string;
  micros: number;
}

const Q = {
  invites: 'SELECT id, cap_micros, auto_approve, created_at, revoked_at, uses, max_uses FROM org_invites ORDER BY created_at DESC, id LIMIT ?1',
  /** As `usage.ts`'s `dailySpend`, per member instead of per purpose: the ledger read backwards from its newest row. */
  memberDailySpend:
    "SELECT strftime('%Y-%m-%d', created_at / 1000, 'unixepoch') AS day, member_account_id AS account_id, -SUM(amount_micros) AS micros FROM ledger " +
    "WHERE seq > COALESCE((SELECT seq FROM ledger WHERE created_at < ?1 ORDER BY seq DESC LIMIT 1), 0) AND kind = 'charge' AND member_account_id IS NOT NULL " +
    'GROUP BY day, member_account_id ORDER BY day',
} as const;

/** What an organization's owner reads in the dashboard beyond the members: its invites and spend per member per day. Read-only. */
export class OrgUsage {
  readonly #storage: DurableObjectStorage;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** The newest `limit` invites, revoked ones included (marked). */
  invites(limit: number): InviteRow[] {
    return this.#storage.sql
      .exec<{ id: string; cap_micros: number | null; auto_approve: number; created_at: number; revoked_at: number | null; uses: number; max_uses: number | null }>(Q.invites, limit)
      .toArray()
      .map((row) => ({
        id: row.id,
        capMicros: row.cap_micros,
        autoApprove: row.auto_approve === 1,
        createdAt: row.created_at,
        revokedAt: row.revoked_at,
        uses: row.uses,
        maxUses: row.max_uses,
      }));
  }

  /** What each member was charged since `since` (ms), per UTC day, oldest day first. */
  memberDailySpend(since: number): MemberDailySpendRow[] {
    return this.#storage.sql.exec<{ day: string; account_id: string; micros: number }>(Q.memberDailySpend, since).toArray().map((row) => ({ day: row.day, accountId: row.account_id, micros: row.micros }));
  }
}
