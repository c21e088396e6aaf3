import { and, count, eq, gt, isNotNull, isNull, min, or, sql } from 'drizzle-orm';
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

/**
 * Whose open intents a cap counts (D35): the account's own (asked by its keys that are not
 * sub-keys, or on its fund page), one sub-key's, or those of all its sub-keys together.
 */
export type IntentBucket = { accountId: string; subKeyId: string | null } | { accountId: string; allSubKeys: true };

function inBucket(bucket: IntentBucket, now: number) {
  const owner = 'allSubKeys' in bucket ? isNotNull(fundingIntents.subKeyId) : bucket.subKeyId === null ? isNull(fundingIntents.subKeyId) : eq(fundingIntents.subKeyId, bucket.subKeyId);
  return and(eq(fundingIntents.accountId, bucket.accountId), owner, eq(fundingIntents.status, 'open'), gt(fundingIntents.expiresAt, now));
}

/** A bucket's intents still open at `now`: how many, and when the first of them expires. */
export async function openIntentsOf(db: Database, bucket: IntentBucket, now: number): Promise<{ open: number; firstExpiresAt: number | null }> {
  const row = await db.select({ open: count(), firstExpiresAt: min(fundingIntents.expiresAt) }).from(fundingIntents).where(inBucket(bucket, now)).get();
  return { open: row?.open ?? 0, firstExpiresAt: row?.firstExpiresAt ?? null };
}

/**
 * Inserts an open intent unless its amount is open already (`taken`, the partial unique index) or
 * a bucket would then hold more than its cap of open intents (`capped`): `caps` name the buckets the
 * intent counts in. One D1 batch, which runs as a transaction: the insert, then the removal of the
 * row just inserted if it went over a cap, so requests racing each other never leave more open.
 */
export async function insertIntentUnderCap(db: Database, row: FundingIntentRow, caps: { bucket: IntentBucket; cap: number }[], now: number): Promise<'opened' | 'taken' | 'capped'> {
  const over = caps.map(({ bucket, cap }) => sql`(${db.select({ n: count() }).from(fundingIntents).where(inBucket(bucket, now))}) > ${cap}`);
  const [inserted, removed] = await db.batch([
    db.insert(fundingIntents).values(row).onConflictDoNothing().returning({ id: fundingIntents.id }),
    db
      .delete(fundingIntents)
      .where(and(eq(fundingIntents.id, row.id), or(...over)))
      .returning({ id: fundingIntents.id }),
  ]);
  if (removed.length > 0) return 'capped';
  return inserted.length > 0 ? 'opened' : 'taken';
}
