import { and, desc, eq, gt, isNotNull, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '.';
import { claimMailSends, claims } from './schema';

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

/**
 * The browser that entered the right user code: a new one replaces the previous, and the emailed
 * code's verification is cleared with it (it belonged to the browser that passed it).
 */
export async function setTicket(db: Database, id: string, ticketHash: string): Promise<void> {
  await db.update(claims).set({ ticketHash, emailVerifiedAt: null }).where(eq(claims.id, id)).run();
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

/**
 * The emailed code was right, entered by the browser holding `ticketHash`: verified only while that
 * ticket is still the claim's (a browser that entered the user code meanwhile is not verified by it).
 */
export async function markEmailVerified(db: Database, id: string, ticketHash: string, at: number): Promise<boolean> {
  const rows = await db
    .update(claims)
    .set({ emailVerifiedAt: at })
    .where(and(eq(claims.id, id), eq(claims.ticketHash, ticketHash)))
    .returning({ id: claims.id })
    .all();
  return rows.length > 0;
}

/**
 * Records in D1 what the account's Durable Object decided: claim `id` is approved (whatever its row
 * said: the Durable Object is the authority) and the account's other pending claims are superseded.
 * Idempotent, so a poll can finish it after a failure between the two.
 */
export async function recordApproval(db: Database, accountId: string, id: string, at: number): Promise<void> {
  await db.batch([
    db.update(claims).set({ status: 'approved', approvedAt: at }).where(and(eq(claims.id, id), sql`${claims.status} <> 'approved'`)),
    db.update(claims).set({ status: 'superseded' }).where(and(eq(claims.accountId, accountId), eq(claims.status, 'pending'))),
  ]);
}

/** The address of the account's newest approved claim whose mailed code was entered (accounts claimed before claims were bound to passkeys), or null. */
export async function verifiedAddressOf(db: Database, accountId: string): Promise<string | null> {
  const row = await db
    .select({ email: claims.email })
    .from(claims)
    .where(and(eq(claims.accountId, accountId), eq(claims.status, 'approved'), isNotNull(claims.email), isNotNull(claims.emailVerifiedAt)))
    .orderBy(desc(claims.approvedAt))
    .limit(1)
    .get();
  return row?.email ?? null;
}

/** Ends the account's pending claims (an operator reset: none of them may finish). */
export async function supersedePending(db: Database, accountId: string): Promise<void> {
  await db.update(claims).set({ status: 'superseded' }).where(and(eq(claims.accountId, accountId), eq(claims.status, 'pending'))).run();
}

/**
 * Takes one of a recipient's claim mails: recorded and true unless `limit` were sent to that
 * address in the hour before `now` (one statement, so concurrent sends cannot pass the limit together).
 */
export async function reserveClaimMail(db: Database, addressHash: string, now: number, limit: number, windowMs: number): Promise<boolean> {
  const rows = await db.all<{ sent_at: number }>(
    sql`INSERT INTO ${claimMailSends} (address_hash, sent_at)
        SELECT ${addressHash}, ${now}
        WHERE (SELECT COUNT(*) FROM ${claimMailSends} WHERE address_hash = ${addressHash} AND sent_at > ${now - windowMs}) < ${limit}
        RETURNING sent_at`,
  );
  return rows.length > 0;
}

/** When the `n`th newest mail to the address after `since` was sent (the one whose hour ends first among those counted). */
export async function nthNewestClaimMail(db: Database, addressHash: string, since: number, n: number): Promise<number | undefined> {
  const row = await db
    .select({ sentAt: claimMailSends.sentAt })
    .from(claimMailSends)
    .where(and(eq(claimMailSends.addressHash, addressHash), gt(claimMailSends.sentAt, since)))
    .orderBy(desc(claimMailSends.sentAt))
    .limit(1)
    .offset(n - 1)
    .get();
  return row?.sentAt;
}

/** Claim mail records older than the limit's window. */
export async function deleteOldClaimMails(db: Database, before: number): Promise<void> {
  await db.delete(claimMailSends).where(lte(claimMailSends.sentAt, before)).run();
}

export async function deleteClaimsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(claims).where(eq(claims.accountId, accountId)).run();
}

/** Claims that ended (expired or superseded) before `before`; approved ones stay as the record of who claimed. */
export async function deleteEndedClaims(db: Database, before: number): Promise<void> {
  await db.delete(claims).where(and(lte(claims.expiresAt, before), sql`${claims.status} <> 'approved'`)).run();
}
