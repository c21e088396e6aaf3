import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import type { Database } from '.';
import type { FundingIntentRow } from './funding';
import { fundingIntents, fundingRequestCounters } from './schema';

/**
 * Counts one USDC funding request of `accountId` in `hour` if fewer than `limit` were made, in one
 * conditional upsert. Answers the hour's requests now counted, or null once the limit is reached.
 */
export async function takeFundingRequest(db: Database, accountId: string, hour: string, limit: number): Promise<number | null> {
  const rows = await db
    .insert(fundingRequestCounters)
    .values({ accountId, hour, requests: 1 })
    .onConflictDoUpdate({
      target: [fundingRequestCounters.accountId, fundingRequestCounters.hour],
      set: { requests: sql`${fundingRequestCounters.requests} + 1` },
      setWhere: sql`${fundingRequestCounters.requests} < ${limit}`,
    })
    .returning({ requests: fundingRequestCounters.requests })
    .all();
  return rows[0]?.requests ?? null;
}

/** The account's intents still open at `now`: how many, and when the first of them expires. */
export async function openIntentsOf(db: Database, accountId: string, now: number): Promise<{ open: number; firstExpiresAt: number | null }> {
  const row = await db
    .select({ open: count(), firstExpiresAt: min(fundingIntents.expiresAt) })
    .from(fundingIntents)
    .where(and(eq(fundingIntents.accountId, accountId), eq(fundingIntents.status, 'open'), gt(fundingIntents.expiresAt, now)))
    .get();
  return { open: row?.open ?? 0, firstExpiresAt: row?.firstExpiresAt ?? null };
}

/**
 * Inserts an open intent unless its amount is open already (`taken`, the partial unique index) or
 * its account would then hold more than `cap` open intents (`capped`). One D1 batch, which runs as
 * a transaction: the insert, then the removal of the row just inserted if it went over the cap, so
 * requests racing each other never leave more than `cap` open.
 */
export async function insertIntentUnderCap(db: Database, row: FundingIntentRow, cap: number, now: number): Promise<'opened' | 'taken' | 'capped'> {
  const openOfAccount = db
    .select({ n: count() })
    .from(fundingIntents)
    .where(and(eq(fundingIntents.accountId, row.accountId), eq(fundingIntents.status, 'open'), gt(fundingIntents.expiresAt, now)));
  const [inserted, removed] = await db.batch([
    db.insert(fundingIntents).values(row).onConflictDoNothing().returning({ id: fundingIntents.id }),
    db
      .delete(fundingIntents)
      .where(and(eq(fundingIntents.id, row.id), sql`(${openOfAccount}) > ${cap}`))
      .returning({ id: fundingIntents.id }),
  ]);
  if (removed.length > 0) return 'capped';
  return inserted.length > 0 ? 'opened' : 'taken';
}
