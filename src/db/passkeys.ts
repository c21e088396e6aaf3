import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '.';
import { passkeyChallenges, passkeys } from './schema';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type ChallengeRow = typeof passkeyChallenges.$inferSelect;

/** Stores a new passkey; false when a passkey with its credential id exists (a second claim must not take it over). */
export async function insertPasskey(db: Database, row: PasskeyRow): Promise<boolean> {
  const rows = await db.insert(passkeys).values(row).onConflictDoNothing().returning({ id: passkeys.id }).all();
  return rows.length > 0;
}

/** The passkey with this credential id: sign-in finds its account by it. */
export async function passkeyById(db: Database, id: string): Promise<PasskeyRow | undefined> {
  return db.select().from(passkeys).where(eq(passkeys.id, id)).get();
}

export async function passkeysOf(db: Database, accountId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.accountId, accountId)).all();
}

/** Removes one of the account's passkeys; false when it has none of that id. */
export async function deletePasskey(db: Database, accountId: string, id: string): Promise<boolean> {
  const rows = await db.delete(passkeys).where(and(eq(passkeys.accountId, accountId), eq(passkeys.id, id))).returning({ id: passkeys.id }).all();
  return rows.length > 0;
}

/** Removes every passkey of the account; how many there were. */
export async function deletePasskeysOf(db: Database, accountId: string): Promise<number> {
  const rows = await db.delete(passkeys).where(eq(passkeys.accountId, accountId)).returning({ id: passkeys.id }).all();
  return rows.length;
}

/** After a sign-in: the authenticator's new signature counter and the time. */
export async function recordPasskeyUse(db: Database, id: string, counter: number, at: number): Promise<void> {
  await db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, id)).run();
}

export async function insertChallenge(db: Database, row: ChallengeRow): Promise<void> {
  await db.insert(passkeyChallenges).values(row).run();
}

/** Takes a challenge once: deleted as it is read, and only while unexpired. */
export async function takeChallenge(db: Database, challenge: string, now: number): Promise<ChallengeRow | undefined> {
  const rows = await db
    .delete(passkeyChallenges)
    .where(and(eq(passkeyChallenges.challenge, challenge), gt(passkeyChallenges.expiresAt, now)))
    .returning()
    .all();
  return rows[0];
}

export async function deleteExpiredChallenges(db: Database, now: number): Promise<void> {
  await db.delete(passkeyChallenges).where(lte(passkeyChallenges.expiresAt, now)).run();
}
