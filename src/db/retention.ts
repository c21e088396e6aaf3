import { and, asc, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '.';
import { fundingIntents, generations, ipDailyCounters, mediaJobs, webJobs, welcomeCreditDays } from './schema';

/**
 * The storage sweep's reads and deletes. Every delete repeats the condition that made the row
 * old, so a row that changed since it was read (a job that is open again cannot be, but the rule
 * holds anyway) is left alone, and a delete done twice changes nothing.
 */

/** D1 binds at most 100 parameters per statement. */
const IDS_PER_STATEMENT = 90;

function chunks<T>(list: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += IDS_PER_STATEMENT) out.push(list.slice(i, i + IDS_PER_STATEMENT));
  return out;
}

const ENDED_MEDIA_JOB = ['completed', 'failed'] as const;

export async function expiredGenerations(db: Database, now: number, limit: number): Promise<{ id: string; keys: string[] }[]> {
  return db.select({ id: generations.id, keys: generations.keys }).from(generations).where(lte(generations.expiresAt, now)).orderBy(asc(generations.expiresAt)).limit(limit).all();
}

export async function deleteExpiredGenerations(db: Database, ids: string[], now: number): Promise<void> {
  for (const part of chunks(ids)) await db.delete(generations).where(and(inArray(generations.id, part), lte(generations.expiresAt, now))).run();
}

/** Media jobs that ended (completed or failed) before `before`; queued and processing ones are never read here. */
export async function endedMediaJobs(db: Database, before: number, limit: number): Promise<{ id: string; keys: string[] | null }[]> {
  return db
    .select({ id: mediaJobs.id, keys: mediaJobs.keys })
    .from(mediaJobs)
    .where(and(inArray(mediaJobs.status, [...ENDED_MEDIA_JOB]), lt(mediaJobs.updatedAt, before)))
    .orderBy(asc(mediaJobs.updatedAt))
    .limit(limit)
    .all();
}

export async function deleteEndedMediaJobs(db: Database, ids: string[], before: number): Promise<void> {
  for (const part of chunks(ids)) {
    await db.delete(mediaJobs).where(and(inArray(mediaJobs.id, part), inArray(mediaJobs.status, [...ENDED_MEDIA_JOB]), lt(mediaJobs.updatedAt, before))).run();
  }
}

export async function webJobsCreatedBefore(db: Database, before: number, limit: number): Promise<{ id: string; accountId: string }[]> {
  return db.select({ id: webJobs.id, accountId: webJobs.accountId }).from(webJobs).where(lt(webJobs.createdAt, before)).orderBy(asc(webJobs.createdAt)).limit(limit).all();
}

export async function deleteWebJobs(db: Database, ids: string[]): Promise<void> {
  for (const part of chunks(ids)) await db.delete(webJobs).where(inArray(webJobs.id, part)).run();
}

/**
 * Deletes at most `limit` rows of a table's rows matched by `where` (D1's SQLite has no
 * DELETE ... LIMIT, so the rows are chosen by rowid in a subquery); answers how many went.
 */
async function deleteSome(db: Database, table: string, where: ReturnType<typeof sql>, limit: number): Promise<number> {
  const result = await db.run(sql`DELETE FROM ${sql.identifier(table)} WHERE rowid IN (SELECT rowid FROM ${sql.identifier(table)} WHERE ${where} LIMIT ${limit})`);
  return result.meta.changes ?? 0;
}

/** Per-IP daily counters of days before `day` (`YY-MM-DD`, as they are keyed). */
export function deleteIpDaysBefore(db: Database, day: string, limit: number): Promise<number> {
  return deleteSome(db, 'ip_daily_counters', sql`${ipDailyCounters.day} < ${day}`, limit);
}

export function deleteWelcomeDaysBefore(db: Database, day: string, limit: number): Promise<number> {
  return deleteSome(db, 'welcome_credit_days', sql`${welcomeCreditDays.day} < ${day}`, limit);
}

/** USDC intents whose hour ended before `before`, whatever their status: none of them can be open. */
export function deleteIntentsExpiredBefore(db: Database, before: number, limit: number): Promise<number> {
  return deleteSome(db, 'funding_intents', sql`${fundingIntents.expiresAt} < ${before}`, limit);
}
