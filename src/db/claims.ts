import { and, desc, eq, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '.';
import { claims } from './schema';

export type ClaimRow = typeof claims.$inferSelect;

/** Opens a claim and supersedes the account's pending one, in one batch: only the newest code works. */
export async function insertClaim(db: Database, row: ClaimRow): Promise<void> {
  await db.batch([
    db.update(claims).set({ status: 'superseded' }).where(and(eq(claims.accountId, row.accountId), eq(claims.status, 'pending'))),
    db.insert(claims).values(row),
  ]);
}

export async function claimById(db: Database, id: string): Promise<ClaimRow | undefined> {
  return db.select().from(claims).where(eq(claims.id, id)).get();
}

/** The claim its agent polls: the pending one (there is at most one), else the newest. */
export async function latestClaimOf(db: Database, accountId: string): Promise<ClaimRow | undefined> {
  // Pending first: two inits in the same millisecond must not leave the superseded one on top.
  const pendingFirst = sql`${claims.status} = 'pending' DESC`;
  return db.select().from(claims).where(eq(claims.accountId, accountId)).orderBy(pendingFirst, desc(claims.createdAt)).limit(1).get();
}

export async function recordPoll(db: Database, id: string, at: number, intervalSeconds: number): Promise<void> {
  await db.update(claims).set({ lastPollAt: at, intervalSeconds }).where(eq(claims.id, id)).run();
}

/**
 * Takes one of a pending claim's code attempts before the code is compared, so a burst of guesses
 * sent at once cannot test more codes than the limit; `refundAttempt` gives it back when the
 * code was right. Answers the attempts now used, or null when the claim is locked or no longer pending.
 */
export async function reserveAttempt(db: Database, id: string, limit: number): Promise<number | null> {
  const rows = await db
    .update(claims)
    .set({ wrongAttempts: sql`${claims.wrongAttempts} + 1` })
    .where(and(eq(claims.id, id), eq(claims.status, 'pending'), lt(claims.wrongAttempts, limit)))
    .returning({ wrongAttempts: claims.wrongAttempts })
    .all();
  return rows[0]?.wrongAttempts ?? null;
}

export async function refundAttempt(db: Database, id: string): Promise<void> {
  await db.update(claims).set({ wrongAttempts: sql`max(${claims.wrongAttempts} - 1, 0)` }).where(eq(claims.id, id)).run();
}

/** The browser that entered the right user code: a new one replaces the previous. */
export async function setTicket(db: Database, id: string, ticketHash: string): Promise<void> {
  await db.update(claims).set({ ticketHash }).where(eq(claims.id, id)).run();
}

/** Stores a new emailed code unless `maxSends` were already sent; false then. */
export async function setEmailCode(db: Database, id: string, codeHash: string, maxSends: number): Promise<boolean> {
  const rows = await db
    .update(claims)
    .set({ emailCodeHash: codeHash, emailSends: sql`${claims.emailSends} + 1` })
    .where(and(eq(claims.id, id), eq(claims.status, 'pending'), lt(claims.emailSends, maxSends)))
    .returning({ id: claims.id })
    .all();
  return rows.length > 0;
}

export async function markEmailVerified(db: Database, id: string, at: number): Promise<void> {
  await db.update(claims).set({ emailVerifiedAt: at }).where(eq(claims.id, id)).run();
}

/** Approves a pending, unexpired claim; false when it is not (someone else finished first, or it ended). */
export async function approve(db: Database, id: string, at: number): Promise<boolean> {
  const rows = await db
    .update(claims)
    .set({ status: 'approved', approvedAt: at })
    .where(and(eq(claims.id, id), eq(claims.status, 'pending'), sql`${claims.expiresAt} > ${at}`))
    .returning({ id: claims.id })
    .all();
  return rows.length > 0;
}

export async function deleteClaimsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(claims).where(eq(claims.accountId, accountId)).run();
}

/** Claims that ended (expired or superseded) before `before`; approved ones stay as the record of who claimed. */
export async function deleteEndedClaims(db: Database, before: number): Promise<void> {
  await db.delete(claims).where(and(lte(claims.expiresAt, before), sql`${claims.status} <> 'approved'`)).run();
}
