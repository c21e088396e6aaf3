import { and, eq, gt, isNull, lte } from 'drizzle-orm';
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

/** Sessions that ended before `before` (expired); kept a while after as a record, then dropped. */
export async function deleteSessionsExpiredBefore(db: Database, before: number): Promise<void> {
  await db.delete(humanSessions).where(lte(humanSessions.expiresAt, before)).run();
}
