import type { Context } from 'hono';
import { withHold } from '../../accounts/billed';
import { randomBase62 } from '../../accounts/credentials';
import { database } from '../../db';
import { claimMediaRender, insertMediaJob, mediaJob, releaseMediaRender, staleMediaJobs, type MediaJobRow } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { imageHoldMicros } from '../images/cost';
import type { ImageRequest } from '../images/request';
import type { ImagePlan } from '../../providers/renders';
import { publicBaseUrl } from '../../urls';
import { mediaHold } from './hold';
import type { QueueMessage } from '../../queue/messages';
import { isTransient } from '../../providers/upstream-errors';
import { jobFailure, overdue } from './failure';
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
 * Submits an image job (`POST /v1/images/jobs`, its request checked and planned): holds the worst
 * case (`imageHoldMicros`), records the job and queues its render. From its message on, the job
 * settles or releases the hold (`runMediaJob`); without its record or its message it cannot run,
 * so nothing stays held and the client is told to retry (a record whose message failed would also
 * be rescued by the sweep).
 */
export async function submitImageJob(c: Context<AppEnv>, request: ImageRequest, plan: ImagePlan): Promise<{ id: string; predictedMicros: number }> {
  const predictedMicros = imageHoldMicros(plan);
  const id = `imgjob_${randomBase62(24)}`;
  await withHold(c, mediaHold({ model: plan.model.id, route: 'images', micros: predictedMicros, purpose: 'image-job', ttlMs: MEDIA_JOB_HOLD_TTL_MS }), async (hold) => {
    const now = Date.now();
    try {
      await insertMediaJob(database(c.env), {
        id,
        accountId: hold.accountId,
        keyId: hold.keyId,
        kind: 'image',
        model: plan.model.id,
        status: 'queued',
        params: request,
        base: publicBaseUrl(c),
        holdId: hold.holdId,
        predictedMicros,
        actualMicros: null,
        keys: null,
        error: null,
        upstream: null,
        createdAt: now,
        updatedAt: now,
      });
      await c.env.JOBS.send(renderMessage({ id, kind: 'image' }));
    } catch (err) {
      console.error('image job not queued', err);
      throw new GatewayError('provider_unavailable', 'The job could not be queued; retry shortly.', { retryAfter: 5 });
    }
  });
  return { id, predictedMicros };
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
    await failJob(env, job, overdue(), now, claim);
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
    await failJob(env, job, jobFailure(err), Date.now(), claim);
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
  for (const job of expired) if (await failJob(env, job, overdue(), now)) failed++;
  const resend = unclaimed.filter((job) => !expired.includes(job));
  if (resend.length > 0) await env.JOBS.sendBatch(resend.map((job) => ({ body: renderMessage(job) })));
  return { resent: resend.length, failed };
}
