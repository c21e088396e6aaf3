import { and, eq, inArray, lt } from 'drizzle-orm';
import type { Database } from '.';
import { mediaJobs } from './schema';

export type MediaJobRow = typeof mediaJobs.$inferSelect;
export type MediaJobStatus = MediaJobRow['status'];

const OPEN: MediaJobStatus[] = ['queued', 'processing'];

export async function insertMediaJob(db: Database, row: MediaJobRow): Promise<void> {
  await db.insert(mediaJobs).values(row).run();
}

/** The job if `accountId` owns it: another account's job reads as missing. */
export async function ownedMediaJob(db: Database, id: string, accountId: string): Promise<MediaJobRow | undefined> {
  return db.select().from(mediaJobs).where(and(eq(mediaJobs.id, id), eq(mediaJobs.accountId, accountId))).get();
}

export async function mediaJob(db: Database, id: string): Promise<MediaJobRow | undefined> {
  return db.select().from(mediaJobs).where(eq(mediaJobs.id, id)).get();
}

/** Moves an open job to `processing`; false when it has already ended (a repeated delivery). */
export async function startMediaJob(db: Database, id: string, now: number): Promise<boolean> {
  const changed = await db
    .update(mediaJobs)
    .set({ status: 'processing', updatedAt: now })
    .where(and(eq(mediaJobs.id, id), inArray(mediaJobs.status, OPEN)))
    .returning({ id: mediaJobs.id })
    .all();
  return changed.length > 0;
}

/**
 * Records a poll of an open job (its state, D8, and that it is alive, for the sweep), only if
 * nobody has touched it since `seen` was read: of two deliveries of the same poll, one wins and
 * goes on; the other learns it lost and stops, so duplicates never fork into parallel chains.
 */
export async function claimMediaJob(db: Database, id: string, seen: MediaJobRow, status: 'queued' | 'processing', now: number): Promise<boolean> {
  const changed = await db
    .update(mediaJobs)
    // Always a new value, even within the millisecond `seen` was written, so a second claim fails.
    .set({ status, updatedAt: Math.max(now, seen.updatedAt + 1) })
    .where(and(eq(mediaJobs.id, id), inArray(mediaJobs.status, OPEN), eq(mediaJobs.updatedAt, seen.updatedAt)))
    .returning({ id: mediaJobs.id })
    .all();
  return changed.length > 0;
}

/** Ends an open job; a job that already ended keeps its first ending. */
export async function endMediaJob(
  db: Database,
  id: string,
  ending: { status: 'completed'; keys: string[]; actualMicros: number } | { status: 'failed'; error: string },
  now: number,
): Promise<void> {
  await db
    .update(mediaJobs)
    .set({ ...ending, updatedAt: now })
    .where(and(eq(mediaJobs.id, id), inArray(mediaJobs.status, OPEN)))
    .run();
}

/** Open jobs in `status` untouched since `before`, oldest first: the sweep's work. */
export async function staleMediaJobs(db: Database, status: 'queued' | 'processing', before: number, limit: number): Promise<MediaJobRow[]> {
  return db
    .select()
    .from(mediaJobs)
    .where(and(eq(mediaJobs.status, status), lt(mediaJobs.updatedAt, before)))
    .orderBy(mediaJobs.updatedAt)
    .limit(limit)
    .all();
}

export async function deleteMediaJobsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(mediaJobs).where(eq(mediaJobs.accountId, accountId)).run();
}
