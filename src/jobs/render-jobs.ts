import { database } from '../db';
import { claimMediaRender, mediaJob, releaseMediaRender, staleMediaJobs, type MediaJobRow } from '../db/media-jobs';
import { GatewayError } from '../errors';
import type { QueueMessage } from '../queue/messages';
import { isTransient } from '../providers/upstream-errors';
import { failJob, RENDER_CLAIM_LEASE_MS, renderJob } from './render';

export { generationId } from './render';

/** A job that has not ended this long after submission fails and frees its hold. */
export const MEDIA_JOB_DEADLINE_MS = 30 * 60 * 1000;
/** The hold outlives the deadline, so the sweep, not the hold's alarm, ends a stuck job. */
export const MEDIA_JOB_HOLD_TTL_MS = MEDIA_JOB_DEADLINE_MS + 15 * 60 * 1000;
/** A queued job untouched this long lost its message: the sweep sends another. */
const QUEUED_RESCUE_MS = 2 * 60 * 1000;
/** Transport trouble (unreachable, 429, 5xx without a failure report) is retried by the queue this many times, then the job fails. */
const MAX_ATTEMPTS = 4;
/** Rows each kind's sweep reads per status and run. */
const SWEEP_BATCH = 100;
/** The kinds rendered by `runMediaJob` (video jobs are polled: `./video-jobs.ts`). */
const RENDERED: MediaJobRow['kind'][] = ['image', 'speech'];

/** The queue message that renders a job (an image job's, or a sync render's backstop). */
export function renderMessage(job: Pick<MediaJobRow, 'id' | 'kind'>): QueueMessage {
  return job.kind === 'speech' ? { kind: 'speech.render', jobId: job.id } : { kind: 'image.render', jobId: job.id };
}

/**
 * Runs one render job (an image job, or a sync image or speech render whose Worker did not finish
 * it) from its queue message. The render is claimed first (`claimMediaRender`): a delivery that
 * finds the job ended, or claimed by a render still within its lease, does nothing, so a
 * redelivered, duplicated or swept message never renders twice while a render is alive; one
 * whose renderer died (its lease past) takes it over. Settlement is idempotent by hold, so even a
 * takeover charges once. A refusal (4xx) fails the job at once; upstream trouble gives the claim
 * up and throws for the queue to retry, until the last attempt fails the job. A failed job
 * releases its hold: nothing is charged. `now` is the consumer's clock (tests move it).
 */
export async function runMediaJob(env: Env, jobId: string, attempt: number, now = Date.now()): Promise<void> {
  const db = database(env);
  const job = await mediaJob(db, jobId);
  if (!job || !RENDERED.includes(job.kind)) return;
  const claim = await claimMediaRender(db, jobId, now, RENDER_CLAIM_LEASE_MS);
  if (!claim) return;
  if (job.createdAt < now - MEDIA_JOB_DEADLINE_MS) {
    await failJob(env, job, 'The job did not finish in time.', now, claim);
    return;
  }
  try {
    await renderJob(env, job);
  } catch (err) {
    // Only transport trouble (and our own storage's) is retried; any answer the provider gave is final.
    const permanent = err instanceof GatewayError && !isTransient(err);
    if (!permanent && attempt < MAX_ATTEMPTS) {
      await releaseMediaRender(db, jobId, claim, Date.now());
      throw err;
    }
    await failJob(env, job, err instanceof GatewayError ? err.message : 'The render failed.', Date.now(), claim);
  }
}

/**
 * The cron's rescue: re-sends the message of a job that waited too long (a lost message) or whose
 * renderer's claim lapsed (a lost consumer, or a sync render whose Worker was cut), and fails a
 * job past its deadline that no live render holds, freeing its hold.
 */
export async function sweepMediaJobs(env: Env, now: number): Promise<{ resent: number; failed: number }> {
  const db = database(env);
  const stale: MediaJobRow[] = [];
  for (const kind of RENDERED) {
    stale.push(...(await staleMediaJobs(db, kind, 'queued', now - QUEUED_RESCUE_MS, SWEEP_BATCH)));
    stale.push(...(await staleMediaJobs(db, kind, 'processing', now - RENDER_CLAIM_LEASE_MS, SWEEP_BATCH)));
  }
  const unclaimed = stale.filter((job) => job.claimedUntil === null || job.claimedUntil < now);
  const expired = unclaimed.filter((job) => job.createdAt < now - MEDIA_JOB_DEADLINE_MS);
  let failed = 0;
  for (const job of expired) if (await failJob(env, job, 'The job did not finish in time.', now)) failed++;
  const resend = unclaimed.filter((job) => !expired.includes(job));
  if (resend.length > 0) await env.JOBS.sendBatch(resend.map((job) => ({ body: renderMessage(job) })));
  return { resent: resend.length, failed };
}
