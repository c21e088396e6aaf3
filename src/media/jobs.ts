import { AccountClient } from '../accounts/account-client';
import { database } from '../db';
import { endMediaJob, mediaJob, staleMediaJobs, startMediaJob, type MediaJobRow } from '../db/media-jobs';
import { GatewayError } from '../errors';
import type { JobMessage } from '../jobs/messages';
import { guardOptionsFromEnv } from '../web/guard';
import { planImages } from './images/plan';
import { produceImages, recordImageGeneration } from './images/produce';
import { ImageGenerationRequest } from './images/request';

/** A job that has not ended this long after submission fails and frees its hold. */
export const MEDIA_JOB_DEADLINE_MS = 30 * 60 * 1000;
/** The hold outlives the deadline, so the sweep, not the hold's alarm, ends a stuck job. */
export const MEDIA_JOB_HOLD_TTL_MS = MEDIA_JOB_DEADLINE_MS + 15 * 60 * 1000;
/** A queued job untouched this long lost its message: the sweep sends another. */
const QUEUED_RESCUE_MS = 2 * 60 * 1000;
/** A processing job untouched this long lost its consumer (a render takes at most 5 minutes). */
const PROCESSING_RESCUE_MS = 7 * 60 * 1000;
/** Upstream trouble (5xx, unreachable) is retried by the queue this many times, then the job fails. */
const MAX_ATTEMPTS = 4;
const SWEEP_BATCH = 100;

export function renderMessage(jobId: string): JobMessage {
  return { kind: 'image.render', jobId };
}

/**
 * Runs one image job from its queue message. Idempotent: a job that has ended is left alone, the
 * settlement is idempotent by hold, and the listing row by id, so a repeated delivery charges
 * once. A refusal (4xx) fails the job at once; upstream trouble throws for the queue to retry,
 * until the last attempt fails the job. A failed job releases its hold: nothing is charged.
 */
export async function runImageJob(env: Env, jobId: string, attempt: number): Promise<void> {
  const db = database(env);
  const job = await mediaJob(db, jobId);
  if (!job || !(await startMediaJob(db, jobId, Date.now()))) return;
  const account = new AccountClient(env, job.accountId);
  try {
    const plan = planImages(ImageGenerationRequest.parse(job.params), env);
    const hosted = await produceImages(env, plan, { accountId: job.accountId, base: job.base, guard: guardOptionsFromEnv(env, new URL(job.base).host) });
    const settled = await account.settle(job.holdId, hosted.costMicros);
    if (!settled.ok) throw new Error(`settlement of ${job.holdId} failed: ${settled.reason}`);
    await recordImageGeneration(env, generationId(jobId), job.accountId, plan, hosted);
    await endMediaJob(db, jobId, { status: 'completed', keys: hosted.keys, actualMicros: settled.chargedMicros }, Date.now());
  } catch (err) {
    const permanent = err instanceof GatewayError && err.status < 500;
    if (!permanent && attempt < MAX_ATTEMPTS) throw err;
    await fail(env, job, err instanceof GatewayError ? err.message : 'The render failed.');
  }
}

/**
 * The cron's rescue: re-sends the message of a job that waited too long (a lost message) and
 * fails a job past its deadline, freeing its hold.
 */
export async function sweepMediaJobs(env: Env, now: number): Promise<{ resent: number; failed: number }> {
  const db = database(env);
  const stale = [
    ...(await staleMediaJobs(db, 'queued', now - QUEUED_RESCUE_MS, SWEEP_BATCH)),
    ...(await staleMediaJobs(db, 'processing', now - PROCESSING_RESCUE_MS, SWEEP_BATCH)),
  ].filter((job) => job.kind === 'image');
  const expired = stale.filter((job) => job.createdAt < now - MEDIA_JOB_DEADLINE_MS);
  for (const job of expired) await fail(env, job, 'The job did not finish in time.');
  const resend = stale.filter((job) => !expired.includes(job));
  if (resend.length > 0) await env.JOBS.sendBatch(resend.map((job) => ({ body: renderMessage(job.id) })));
  return { resent: resend.length, failed: expired.length };
}

async function fail(env: Env, job: MediaJobRow, error: string): Promise<void> {
  await new AccountClient(env, job.accountId).release(job.holdId);
  await endMediaJob(database(env), job.id, { status: 'failed', error }, Date.now());
}

export function generationId(jobId: string): string {
  return `gen_${jobId.replace(/^imgjob_/, '')}`;
}
