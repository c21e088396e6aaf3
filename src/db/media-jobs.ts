import { and, eq, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '.';
import type { ErrorCode } from '../errors';
import { mediaJobs } from './schema';

export type MediaJobRow = typeof mediaJobs.$inferSelect;
export type MediaJobStatus = MediaJobRow['status'];
/** A new job: unclaimed unless it is written already claimed by its renderer (a sync render). */
export type NewMediaJob = Omit<MediaJobRow, 'claim' | 'claimedUntil' | 'errorCode' | 'keyId'> & Partial<Pick<MediaJobRow, 'claim' | 'claimedUntil' | 'errorCode' | 'keyId'>>;
/** Why a job failed: the message a client reads and the envelope code it branches on. */
export interface JobFailure {
  code: ErrorCode;
  message: string;
}

const OPEN: MediaJobStatus[] = ['queued', 'processing'];

export async function insertMediaJob(db: Database, row: NewMediaJob): Promise<void> {
  await db.insert(mediaJobs).values(row).run();
}

/** The job if `accountId` owns it: another account's job reads as missing. */
/** The job `id` of an account (with `keyId`, D35: only if that key submitted it). */
export async function ownedMediaJob(db: Database, id: string, accountId: string, keyId?: string): Promise<MediaJobRow | undefined> {
  return db
    .select()
    .from(mediaJobs)
    .where(and(eq(mediaJobs.id, id), eq(mediaJobs.accountId, accountId), keyId === undefined ? undefined : eq(mediaJobs.keyId, keyId)))
    .get();
}

export async function mediaJob(db: Database, id: string): Promise<MediaJobRow | undefined> {
  return db.select().from(mediaJobs).where(eq(mediaJobs.id, id)).get();
}

/** A claim that nobody holds: never held, released, or its lease past at `now`. */
function unclaimedAt(now: number) {
  return or(isNull(mediaJobs.claimedUntil), lt(mediaJobs.claimedUntil, now));
}

/**
 * Claims a job's render: one conditional update that moves a `queued` job, or a `processing` one
 * whose claim's lease has passed (its renderer died), to `processing` under a new claim until
 * `now + leaseMs`. Returns the claim's token, or null when the job has ended or someone else's
 * claim is alive: of any number of deliveries at once, exactly one renders.
 */
export async function claimMediaRender(db: Database, id: string, now: number, leaseMs: number): Promise<string | null> {
  const claim = crypto.randomUUID();
  const changed = await db
    .update(mediaJobs)
    .set({ status: 'processing', claim, claimedUntil: now + leaseMs, updatedAt: now })
    .where(and(eq(mediaJobs.id, id), or(eq(mediaJobs.status, 'queued'), and(eq(mediaJobs.status, 'processing'), unclaimedAt(now)))))
    .returning({ id: mediaJobs.id })
    .all();
  return changed.length > 0 ? claim : null;
}

/** Gives up a live claim (its render failed and the queue will retry): the next delivery may claim at once. */
export async function releaseMediaRender(db: Database, id: string, claim: string, now: number): Promise<void> {
  await db
    .update(mediaJobs)
    .set({ claimedUntil: now, updatedAt: now })
    .where(and(eq(mediaJobs.id, id), eq(mediaJobs.status, 'processing'), eq(mediaJobs.claim, claim)))
    .run();
}

/**
 * Fails an open job, only if `claim` still holds it (the renderer's own failure) or, without a
 * claim, only if nobody's claim is alive at `now` (the sweep's deadline): a failure never ends a
 * job another renderer is finishing. True when this call ended the job (its caller then frees the hold).
 */
export async function failMediaJob(db: Database, id: string, failure: JobFailure, now: number, claim?: string): Promise<boolean> {
  const changed = await db
    .update(mediaJobs)
    .set({ status: 'failed', error: failure.message, errorCode: failure.code, updatedAt: now })
    .where(and(eq(mediaJobs.id, id), inArray(mediaJobs.status, OPEN), claim === undefined ? unclaimedAt(now) : eq(mediaJobs.claim, claim)))
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
  ending: { status: 'completed'; keys: string[]; actualMicros: number } | { status: 'failed'; failure: JobFailure },
  now: number,
): Promise<void> {
  const values = ending.status === 'completed' ? ending : { status: ending.status, error: ending.failure.message, errorCode: ending.failure.code };
  await db
    .update(mediaJobs)
    .set({ ...values, updatedAt: now })
    .where(and(eq(mediaJobs.id, id), inArray(mediaJobs.status, OPEN)))
    .run();
}

/**
 * Open jobs of one kind in `status` untouched since `before`, oldest first: a sweep's work. By
 * kind (index `media_jobs_kind_open`), so one kind's backlog never fills another kind's batch.
 */
export async function staleMediaJobs(db: Database, kind: MediaJobRow['kind'], status: 'queued' | 'processing', before: number, limit: number): Promise<MediaJobRow[]> {
  return db
    .select()
    .from(mediaJobs)
    .where(and(eq(mediaJobs.kind, kind), eq(mediaJobs.status, status), lt(mediaJobs.updatedAt, before)))
    .orderBy(mediaJobs.updatedAt)
    .limit(limit)
    .all();
}

export async function deleteMediaJobsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(mediaJobs).where(eq(mediaJobs.accountId, accountId)).run();
}
