import { and, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '.';
import { humanSessions } from './schema';

export type SessionRow = typeof humanSessions.$inferSelect;

export async function insertSession(db: Database, row: SessionRow): Promise<void> {
  await db.insert(humanSessions).values(row).run();
}

/** The live session with this token hash: not revoked and not expired at `now`. */
export async function liveSession(db: Database, tokenHash: string, now: number): Promise<SessionRow | undefined> {
  return db
    .select()
    .from(humanSessions)
    .where(and(eq(humanSessions.tokenHash, tokenHash), isNull(humanSessions.revokedAt), gt(humanSessions.expiresAt, now)))
    .get();
}

export async function revokeSession(db: Database, tokenHash: string, at: number): Promise<void> {
  await db.update(humanSessions).set({ revokedAt: at }).where(and(eq(humanSessions.tokenHash, tokenHash), isNull(humanSessions.revokedAt))).run();
}

/** The account's live sessions, newest first. */
export async function liveSessionsOf(db: Database, accountId: string, now: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(humanSessions)
    .where(and(eq(humanSessions.accountId, accountId), isNull(humanSessions.revokedAt), gt(humanSessions.expiresAt, now)))
    .orderBy(desc(humanSessions.createdAt))
    .all();
}

/** Revokes the account's live session whose token hash starts with `idPrefix` (the id a page shows); false when none. */
export async function revokeSessionOf(db: Database, accountId: string, idPrefix: string, at: number): Promise<boolean> {
  const rows = await db
    .update(humanSessions)
    .set({ revokedAt: at })
    .where(and(eq(humanSessions.accountId, accountId), isNull(humanSessions.revokedAt), sql`substr(${humanSessions.tokenHash}, 1, ${idPrefix.length}) = ${idPrefix}`))
    .returning({ tokenHash: humanSessions.tokenHash })
    .all();
  return rows.length > 0;
}

/** Revokes every live session of the account; how many. */
export async function revokeSessionsOf(db: Database, accountId: string, at: number): Promise<number> {
  const rows = await db
    .update(humanSessions)
    .set({ revokedAt: at })
    .where(and(eq(humanSessions.accountId, accountId), isNull(humanSessions.revokedAt)))
    .returning({ tokenHash: humanSessions.tokenHash })
    .all();
  return rows.length;
}

/** Sessions that ended before `before` (expired); kept a while after as a record, then dropped. */
export async function deleteSessionsExpiredBefore(db: Database, before: number): Promise<void> {
  await db.delete(humanSessions).where(lte(humanSessions.expiresAt, before)).run();
}
