import { and, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '.';
import { accounts, claims, deposits } from './schema';

/** What the operator's search matched on (`GET /admin/accounts`); none lists every account. */
export type AccountMatch = { by: 'account'; accountId: string } | { by: 'email'; email: string } | { by: 'wallet'; address: string } | { by: 'all' };

export interface AccountListRow {
  id: string;
  createdAt: number;
  fundedAt: number | null;
  claimedAt: number | null;
  /** The email bound to the newest approved claim; null when none was bound. */
  email: string | null;
}

/**
 * One page of accounts, newest first (`created_at`, then `id`), after `cursor`; `limit + 1` rows
 * so the caller knows whether another page follows. Email and wallet matches go through
 * indexes of migration 0014 (`claims_email`, `deposits_from`).
 */
export async function searchAccounts(
  db: Database,
  query: { match: AccountMatch; limit: number; cursor?: { createdAt: number; id: string } },
): Promise<AccountListRow[]> {
  const { match, limit, cursor } = query;
  return db
    .select({
      id: accounts.id,
      createdAt: accounts.createdAt,
      fundedAt: accounts.fundedAt,
      claimedAt: accounts.claimedAt,
      // Qualified by hand: drizzle writes a column of a select bare, and `id` in a subquery of claims is the claim's.
      email: sql<string | null>`(SELECT c.email FROM claims c WHERE c.account_id = "accounts"."id" AND c.status = 'approved' ORDER BY c.approved_at DESC LIMIT 1)`,
    })
    .from(accounts)
    .where(
      and(
        matching(db, match),
        cursor ? or(lt(accounts.createdAt, cursor.createdAt), and(eq(accounts.createdAt, cursor.createdAt), lt(accounts.id, cursor.id))) : undefined,
      ),
    )
    .orderBy(desc(accounts.createdAt), desc(accounts.id))
    .limit(limit + 1)
    .all();
}

function matching(db: Database, match: AccountMatch): SQL | undefined {
  switch (match.by) {
    case 'all':
      return undefined;
    case 'account':
      return eq(accounts.id, match.accountId);
    case 'email':
      // Any approved claim's email, a human's earlier one included (emails are stored lowercased).
      return inArray(accounts.id, db.select({ id: claims.accountId }).from(claims).where(and(eq(claims.email, match.email), eq(claims.status, 'approved'))));
    case 'wallet':
      // A sender of USDC deposits credited to the account (matched to an intent, or by hand).
      return inArray(
        accounts.id,
        db
          .select({ id: deposits.accountId })
          .from(deposits)
          .where(sql`lower(${deposits.fromAddress}) = ${match.address}`),
      );
  }
}
