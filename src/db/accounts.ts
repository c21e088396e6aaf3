import { and, asc, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Database } from '.';
import { accounts } from './schema';

export async function insertAccount(db: Database, id: string, createdAt: number, expiresAt: number | null, fundTokenHash: string): Promise<void> {
  await db.insert(accounts).values({ id, createdAt, expiresAt, fundTokenHash }).run();
}

/** The account a fund link names, by the SHA-256 of its token. */
export async function accountOfFundToken(db: Database, fundTokenHash: string): Promise<string | undefined> {
  const row = await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.fundTokenHash, fundTokenHash)).get();
  return row?.id;
}

/** The account was funded: it never expires. Only the first funding writes. */
export async function markFunded(db: Database, id: string, at: number): Promise<void> {
  await db.update(accounts).set({ fundedAt: at, expiresAt: null }).where(and(eq(accounts.id, id), isNull(accounts.fundedAt))).run();
}

/** A human claimed the account: it never expires. Only the first claim writes. */
export async function markClaimed(db: Database, id: string, at: number): Promise<void> {
  await db.update(accounts).set({ claimedAt: at, expiresAt: null }).where(and(eq(accounts.id, id), isNull(accounts.claimedAt))).run();
}

/** Unfunded, unclaimed accounts past their expiry, oldest first. */
export async function expiredAccountIds(db: Database, now: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(isNotNull(accounts.expiresAt), lte(accounts.expiresAt, now), isNull(accounts.fundedAt), isNull(accounts.claimedAt)))
    .orderBy(asc(accounts.expiresAt))
    .limit(limit)
    .all();
  return rows.map((row) => row.id);
}

export async function deleteAccountRecords(db: Database, id: string): Promise<void> {
  await db.delete(accounts).where(eq(accounts.id, id)).run();
}

export async function updateAccountIndex(
  db: Database,
  id: string,
  state: { fundedAt: number | null; claimedAt: number | null; expiresAt: number | null },
): Promise<void> {
  await db.update(accounts).set(state).where(eq(accounts.id, id)).run();
}
