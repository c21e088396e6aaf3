/**
 * The hot path's SQL, as constant text: workerd caches a prepared statement per text, so a hold
 * or a settlement builds no query at run time (drizzle's builder cost more than SQLite itself).
 * Column names follow `schema.ts`.
 */
export const SQL = {
  insertHold:
    'INSERT INTO holds (id, key_id, amount_micros, purpose, request_id, created_at, expires_at, member_account_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  deleteHold: 'DELETE FROM holds WHERE id = ?',
  extendHold: 'UPDATE holds SET expires_at = ? WHERE id = ?',
  openHolds: 'SELECT id, key_id, amount_micros, purpose, request_id, created_at, expires_at, member_account_id FROM holds',
  /** What the ledger says of a hold that is no longer open: its `hold:`, `charge:` and `release:` rows. */
  closedHold: 'SELECT kind, amount_micros, key_id, note, request_id, member_account_id FROM ledger WHERE idempotency_key IN (?, ?, ?)',
  insertLedger:
    'INSERT INTO ledger (kind, amount_micros, balance_after_micros, hold_id, key_id, source, idempotency_key, note, request_id, created_at, member_account_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  /** A settlement's charge and release rows in one statement. */
  insertLedger2:
    'INSERT INTO ledger (kind, amount_micros, balance_after_micros, hold_id, key_id, source, idempotency_key, note, request_id, created_at, member_account_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  /** Holds the alarm released that no late settlement charged (admin view); reads the partial index `ledger_expired`. */
  expiredUnsettled:
    "SELECT COUNT(*) AS count FROM ledger r WHERE r.kind = 'release' AND r.note = 'expired' " +
    "AND NOT EXISTS (SELECT 1 FROM ledger c WHERE c.idempotency_key = 'charge:' || r.hold_id)",
  /** D29: a member's holds the alarm released since an instant that no late settlement charged yet (reads the partial index `ledger_expired`). */
  memberExpiredUnsettled:
    "SELECT COUNT(*) AS count FROM ledger r WHERE r.kind = 'release' AND r.note = 'expired' AND r.member_account_id = ? AND r.created_at >= ? " +
    "AND NOT EXISTS (SELECT 1 FROM ledger c WHERE c.idempotency_key = 'charge:' || r.hold_id)",
  ledgerKeyExists: 'SELECT 1 FROM ledger WHERE idempotency_key = ?',
  /** D33: what upstreams billed beyond the holds (admin view; off the hot path). */
  losses: "SELECT SUM(amount_micros) AS total FROM ledger WHERE kind = 'loss'",
  setBalance: 'UPDATE account SET balance_micros = ?',
  setFunding: 'UPDATE account SET balance_micros = ?, funded_at = ?, expires_at = ?, card_funded_micros = ?',
  account: 'SELECT id, created_at, balance_micros, claimed_at, funded_at, expires_at, card_funded_micros, fund_token, suspended_at, suspended_reason, kind, name, organization_id FROM account',
  setSuspended: 'UPDATE account SET suspended_at = ?, suspended_reason = ?',
  keyByHash:
    'SELECT id, hash, revoked_at, expires_at, daily_limit_micros, monthly_limit_micros, total_limit_micros, allowed_models, allowed_routes, parent_key_id FROM api_keys WHERE hash = ?',
  addSpend:
    'INSERT INTO key_spend (key_id, period, spent_micros) VALUES (?, ?, ?), (?, ?, ?), (?, ?, ?) ' +
    'ON CONFLICT (key_id, period) DO UPDATE SET spent_micros = spent_micros + excluded.spent_micros',
  addSpendOne: 'INSERT INTO key_spend (key_id, period, spent_micros) VALUES (?, ?, ?) ON CONFLICT (key_id, period) DO UPDATE SET spent_micros = spent_micros + excluded.spent_micros',
  /**
   * D35: what a key and the keys below it (a JSON array of ids) spent in three periods, with what
   * pruned sub-keys left to their parents (`<parent id>:pruned`, `foldPrunedSubKeySpend`).
   */
  familySpend:
    "SELECT period, SUM(spent_micros) AS spent_micros FROM key_spend WHERE key_id IN (SELECT value FROM json_each(?1) UNION ALL SELECT value || ':pruned' FROM json_each(?1)) " +
    'AND period IN (?2, ?3, ?4) GROUP BY period',
  keyById:
    'SELECT id, hash, revoked_at, expires_at, daily_limit_micros, monthly_limit_micros, total_limit_micros, allowed_models, allowed_routes, parent_key_id FROM api_keys WHERE id = ?',
  /** D35: who minted whom, for the key tree. */
  keyParents: 'SELECT id, parent_key_id FROM api_keys WHERE parent_key_id IS NOT NULL',
  /** Whether a key's spend is counted: it has a limit, or it is a sub-key (D27: its `spent_usd` is read from the counters). */
  keyLimited:
    'SELECT daily_limit_micros IS NOT NULL OR monthly_limit_micros IS NOT NULL OR total_limit_micros IS NOT NULL OR parent_key_id IS NOT NULL AS limited FROM api_keys WHERE id = ?',
  /** A key's charges since an instant, to rebuild its spend counters when it gains a limit. */
  chargedSince: "SELECT COALESCE(-SUM(amount_micros), 0) AS spent FROM ledger WHERE key_id = ? AND kind = 'charge' AND created_at >= ?",
  clearSpend: 'DELETE FROM key_spend WHERE key_id = ?',
  /** D27: keys that still work at an instant, and every key row, for the mint's caps. */
  liveKeys: 'SELECT COUNT(*) AS count FROM api_keys WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)',
  keyRows: 'SELECT COUNT(*) AS count FROM api_keys',
  /** D27: sub-keys revoked or expired before an instant, and their counters, deleted at the next mint. */
  /** D35: a pruned sub-key's spend stays counted against the limits of the key that minted it. */
  foldPrunedSubKeySpend:
    "INSERT INTO key_spend (key_id, period, spent_micros) SELECT k.parent_key_id || ':pruned', s.period, s.spent_micros FROM key_spend s JOIN api_keys k ON k.id = s.key_id " +
    'WHERE k.parent_key_id IS NOT NULL AND (k.revoked_at < ? OR k.expires_at < ?) ' +
    'ON CONFLICT (key_id, period) DO UPDATE SET spent_micros = spent_micros + excluded.spent_micros',
  pruneDeadSubKeySpend:
    'DELETE FROM key_spend WHERE key_id IN (SELECT id FROM api_keys WHERE parent_key_id IS NOT NULL AND (revoked_at < ? OR expires_at < ?))',
  pruneDeadSubKeys: 'DELETE FROM api_keys WHERE parent_key_id IS NOT NULL AND (revoked_at < ? OR expires_at < ?)',
  /** Every counted key's spend since its counters began (`spent_usd` of `GET /agent/keys`). */
  spentTotals: "SELECT key_id, spent_micros FROM key_spend WHERE period = 'total'",
  /** Every key's charges from the ledger, for keys without counters: a scan, on a rare read only. */
  chargedByKey: "SELECT key_id, -SUM(amount_micros) AS spent FROM ledger WHERE kind = 'charge' AND key_id IS NOT NULL GROUP BY key_id",
  /** D29, in a member account: what an organization it left last reported of a key's spend in a period. */
  orgKeySpent: 'SELECT spent_micros FROM org_key_spend WHERE organization_id = ? AND key_id = ? AND period = ?',
  setOrgKeySpent:
    'INSERT INTO org_key_spend (organization_id, key_id, period, spent_micros) VALUES (?, ?, ?, ?) ' +
    'ON CONFLICT (organization_id, key_id, period) DO UPDATE SET spent_micros = excluded.spent_micros',
  orgKeySpendOf: 'SELECT key_id, period, spent_micros FROM org_key_spend WHERE organization_id = ?',
  deleteOrgKeySpend: 'DELETE FROM org_key_spend WHERE organization_id = ?',
  orgKeySpentIn: 'SELECT COALESCE(SUM(spent_micros), 0) AS spent FROM org_key_spend WHERE key_id = ? AND period = ?',
  orgKeySpendTotals: "SELECT key_id, SUM(spent_micros) AS spent FROM org_key_spend WHERE period = 'total' GROUP BY key_id",
  subtractSpend: 'UPDATE key_spend SET spent_micros = MAX(0, spent_micros - ?) WHERE key_id = ? AND period = ?',
  claimTokenHash: 'SELECT claim_token_hash FROM account',
  /** A claimed account never expires. */
  setClaimed: 'UPDATE account SET claimed_at = ?, expires_at = NULL',
  /** D29, in an organization: a member's charge counted for its cap and its key's limits (day, month, total). */
  addMemberSpend:
    'INSERT INTO member_spend (account_id, key_id, period, spent_micros) VALUES (?, ?, ?, ?), (?, ?, ?, ?), (?, ?, ?, ?) ' +
    'ON CONFLICT (account_id, key_id, period) DO UPDATE SET spent_micros = spent_micros + excluded.spent_micros',
  /** A member's charges in one period, every key of it (its monthly cap). */
  memberSpent: 'SELECT COALESCE(SUM(spent_micros), 0) AS spent FROM member_spend WHERE account_id = ? AND period = ?',
  /** One member key's charges here in the periods of its limits. */
  memberKeySpent: 'SELECT period, spent_micros FROM member_spend WHERE account_id = ? AND key_id = ? AND period IN (?, ?, ?)',
  /** D35: what several keys of one member (a JSON array of ids: a key and the keys below it) were charged here in one period. */
  memberFamilySpent: 'SELECT COALESCE(SUM(spent_micros), 0) AS spent FROM member_spend WHERE account_id = ? AND period = ? AND key_id IN (SELECT value FROM json_each(?))',
  member: 'SELECT account_id, status, cap_micros, invite_id, joined_at, approved_at, left_at FROM org_members WHERE account_id = ?',
  /** D29 and D35: the member account and the key of a hold, from its `hold:` ledger row (a request record's owner). */
  holdOwner: 'SELECT member_account_id, key_id FROM ledger WHERE idempotency_key = ?',
  setOrganization: 'UPDATE account SET organization_id = ?',
} as const;

export type Statement = (typeof SQL)[keyof typeof SQL];

/**
 * Runs one of the statements above and returns its rows. Its type admits no other text, so the
 * modules cannot build a query at run time by accident.
 */
export function run<T extends Record<string, SqlStorageValue> = Record<string, SqlStorageValue>>(
  storage: DurableObjectStorage,
  statement: Statement,
  ...bindings: unknown[]
): T[] {
  return storage.sql.exec<T>(statement, ...bindings).toArray();
}

export type AccountRow = {
  id: string;
  created_at: number;
  balance_micros: number;
  claimed_at: number | null;
  funded_at: number | null;
  expires_at: number | null;
  card_funded_micros: number;
  fund_token: string | null;
  /** D28: the account's keys are refused while set. */
  suspended_at: number | null;
  suspended_reason: string | null;
  /** D29: `organization` for an organization. */
  kind: string;
  name: string | null;
  /** D29: the organization this account is a member of. */
  organization_id: string | null;
};

export type KeyRow = {
  id: string;
  hash: string;
  revoked_at: number | null;
  expires_at: number | null;
  daily_limit_micros: number | null;
  monthly_limit_micros: number | null;
  total_limit_micros: number | null;
  /** JSON array of slugs, or null for every model. */
  allowed_models: string | null;
  /** JSON array of route classes, or null for every route (D27). */
  allowed_routes: string | null;
  parent_key_id: string | null;
};

export type OpenHold = {
  id: string;
  key_id: string | null;
  amount_micros: number;
  purpose: string;
  request_id: string | null;
  created_at: number;
  /** Changed in place when the hold's lease is extended. */
  expires_at: number;
  /** D29, in an organization: the member account whose request the hold covers. */
  member_account_id: string | null;
};
