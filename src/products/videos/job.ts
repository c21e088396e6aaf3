import type { Context } from 'hono';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import { releaseJobHold, settleJobHold, withHold } from '../../accounts/billed';
import { GatewayError } from '../../errors';
import { fetchIdle, upstreamIdleMs } from '../../providers/idle';
import { isTransient } from '../../providers/upstream-errors';
import { database } from '../../db';
import { insertGeneration } from '../../db/generations';
import type { AppEnv } from '../../env';
import { loadReferences } from '../../media/references';
import type { VideoPlan } from './plan';
import type { VideoRequest } from './request';
import { publicBaseUrl } from '../../urls';
import { requestGuard } from '../../web/policy';
import { mediaHold } from '../render/hold';
import { claimMediaJob, endMediaJob, insertMediaJob, mediaJob, staleMediaJobs, type JobFailure, type MediaJobRow } from '../../db/media-jobs';
import { jobFailure, overdue } from '../render/failure';
import type { QueueMessage } from '../../queue/messages';
import { mediaJobRecord } from '../render/render';
import { accountPrefix } from '../../media/keys';
import { outputRetentionMs } from '../../media/outputs';
import { mp4DurationMeter } from '../../media/mp4-duration';
import { copyToR2 } from '../../media/stream-copy';
import { randomBase62 } from '../../accounts/credentials';
import { pollVideo, submitVideo, videoRailReadsFrameBytes } from './rail';
import { outputCharge } from './charge';
import { findModel } from '../../catalog';
import type { VideoModel } from '../../catalog/types';

/** A video job still open this long after submission fails and frees its hold. */
export const VIDEO_JOB_DEADLINE_MS = 60 * 60 * 1000;
export const VIDEO_JOB_HOLD_TTL_MS = VIDEO_JOB_DEADLINE_MS + 15 * 60 * 1000;
/** An open job untouched this long lost its poll message: the sweep sends another. */
const RESCUE_AFTER_MS = 2 * 60 * 1000;
const SWEEP_BATCH = 100;

export function pollMessage(jobId: string): QueueMessage {
  return { kind: 'video.poll', jobId };
}

/**
 * Submits a video job (`POST /v1/videos/generations`, its request checked and planned): holds the
 * price of the requested seconds, sends the render upstream (so a refusal or an outage is answered
 * now, and releases the hold), records the job and queues its first poll. From its record on, the
 * job settles or releases the hold (`pollVideoJob`, `sweepVideoJobs`); a lost first poll is sent
 * again by the sweep.
 */
export async function submitVideoJob(c: Context<AppEnv>, request: VideoRequest, plan: VideoPlan): Promise<{ id: string }> {
  const id = `vidjob_${randomBase62(24)}`;
  const base = publicBaseUrl(c);
  await withHold(c, mediaHold({ model: plan.model.id, route: 'videos', micros: plan.predictedMicros, purpose: 'video', ttlMs: VIDEO_JOB_HOLD_TTL_MS }), async (hold) => {
    const frames = plan.imageUrl && videoRailReadsFrameBytes(plan.route.provider) ? await loadReferences([plan.imageUrl], base, c.env.MEDIA, requestGuard(c), request.image_url ? 'image_url' : 'image_urls') : [];
    const upstream = await submitVideo(plan, frames[0], c.env);
    const now = Date.now();
    await insertMediaJob(database(c.env), {
      id,
      accountId: hold.accountId,
      keyId: hold.keyId,
      kind: 'video',
      model: plan.model.id,
      status: 'queued',
      // The resolved duration too (D7's default when none was asked): the request's lookup shows its seconds (D26).
      params: { ...request, duration: plan.duration },
      base,
      holdId: hold.holdId,
      predictedMicros: plan.predictedMicros,
      actualMicros: null,
      keys: null,
      error: null,
      upstream,
      createdAt: now,
      updatedAt: now,
    });
  });
  await c.env.JOBS.send(pollMessage(id), { delaySeconds: 2 }).catch((err) => console.error('first video poll not queued', err));
  return { id };
}

/** Polls start every 2 seconds and slow to every 30 as the render ages (renders take minutes). */
export function pollDelaySeconds(ageMs: number): number {
  return Math.min(30, Math.max(2, Math.round(ageMs / 10_000)));
}

/**
 * One poll of a video job, from its queue message. Idempotent: an ended job is left alone, the
 * settlement is idempotent by hold and the listing row by id, and of two deliveries of the same
 * poll only the one that claims the job (`claimMediaJob`) goes on, so a repeated or rescued
 * message never copies a video twice nor forks the polling. While the upstream works, the job
 * moves from `queued` to `processing` (D8) and the next poll is queued with a delay; a finished
 * render is streamed into R2, charged and listed; a failed one releases the hold.
 */
export async function pollVideoJob(env: Env, jobId: string): Promise<void> {
  const db = database(env);
  const job = await mediaJob(db, jobId);
  if (!job || job.kind !== 'video' || (job.status !== 'queued' && job.status !== 'processing') || !job.upstream) return;
  const now = Date.now();
  if (now - job.createdAt > VIDEO_JOB_DEADLINE_MS) return fail(env, job, overdue('The render did not finish in time.'));

  let progress: Awaited<ReturnType<typeof pollVideo>>;
  try {
    progress = await pollVideo(job.upstream, env);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (!isTransient(err)) return fail(env, job, jobFailure(err));
    // Transport trouble: the same render is polled again at the usual pace, never submitted again.
    if (!(await claimMediaJob(db, jobId, job, job.status, now))) return;
    await env.JOBS.send(pollMessage(jobId), { delaySeconds: pollDelaySeconds(now - job.createdAt) });
    return;
  }
  switch (progress.state) {
    case 'queued':
    case 'processing':
      if (!(await claimMediaJob(db, jobId, job, progress.state === 'processing' ? 'processing' : job.status, now))) return;
      await env.JOBS.send(pollMessage(jobId), { delaySeconds: pollDelaySeconds(now - job.createdAt) });
      return;
    case 'failed':
      return fail(env, job, { code: 'provider_error', message: progress.error });
    case 'completed': {
      // Claimed before the copy; a copy that fails throws, and the queue's retry claims it again.
      if (!(await claimMediaJob(db, jobId, job, 'processing', now))) return;
      // A provider's CDN that stops sending holds the consumer no longer than the idle bound; the queue's retry copies again.
      const response = await fetchIdle((signal) => progress.download(signal), upstreamIdleMs(env));
      if (!response.ok) throw new Error(`the finished video could not be downloaded (HTTP ${response.status})`);
      const key = `${accountPrefix('outputs', job.accountId)}${randomBase62(32)}.mp4`;
      const model = videoModel(job.model);
      // A video whose length follows its input is charged by the length its own MP4 index gives,
      // read as it streams into R2 (the provider's word only where the file says nothing).
      const meter = model?.lengthFromInput && response.body ? mp4DurationMeter() : null;
      await copyToR2(env.MEDIA, key, meter ? new Response(response.body!.pipeThrough(meter.stream), { headers: response.headers }) : response, 'video/mp4');
      const heldSeconds = typeof job.params.duration === 'number' ? job.params.duration : 0;
      const charge = outputCharge(model, job.predictedMicros, heldSeconds, meter?.seconds() ?? progress.seconds);
      const settled = await settleJobHold(env, job.accountId, job.holdId, charge.micros, videoRecord(job, now, charge.seconds > 0 ? charge.seconds : undefined));
      const done = Date.now();
      await insertGeneration(db, {
        id: `gen_${job.id.replace(/^vidjob_/, '')}`,
        accountId: job.accountId,
        keyId: job.keyId,
        kind: 'video',
        model: job.model,
        prompt: String(job.params.prompt ?? ''),
        keys: [key],
        createdAt: done,
        expiresAt: done + outputRetentionMs(env),
      });
      await endMediaJob(db, jobId, { status: 'completed', keys: [key], actualMicros: settled.costMicros }, done);
    }
  }
}

/** The cron's rescue for video jobs: a lost poll message is sent again; an overdue job fails. */
export async function sweepVideoJobs(env: Env, now: number): Promise<{ resent: number; failed: number }> {
  const db = database(env);
  const stale = [
    ...(await staleMediaJobs(db, 'video', 'queued', now - RESCUE_AFTER_MS, SWEEP_BATCH)),
    ...(await staleMediaJobs(db, 'video', 'processing', now - RESCUE_AFTER_MS, SWEEP_BATCH)),
  ];
  const late = stale.filter((job) => now - job.createdAt > VIDEO_JOB_DEADLINE_MS);
  for (const job of late) await fail(env, job, overdue('The render did not finish in time.'));
  const resend = stale.filter((job) => !late.includes(job));
  if (resend.length > 0) await env.JOBS.sendBatch(resend.map((job) => ({ body: pollMessage(job.id) })));
  return { resent: resend.length, failed: late.length };
}

function videoModel(id: string): VideoModel | undefined {
  const model = findModel(id);
  return model?.type === 'video' ? model : undefined;
}

/** D26: the record of the request that made a video job (its request id is the hold's). */
function videoRecord(job: MediaJobRow, now: number, charged?: number): RequestRecord {
  const held = typeof job.params.duration === 'number' ? job.params.duration : undefined;
  // A settled job records the seconds charged (a lip-sync's output may be shorter than its hold).
  const seconds = charged ?? held;
  return { ...mediaJobRecord(job, seconds !== undefined ? { seconds } : {}, now), path: '/v1/videos/generations' };
}

async function fail(env: Env, job: MediaJobRow, failure: JobFailure): Promise<void> {
  await releaseJobHold(env, job.accountId, job.holdId, { ...videoRecord(job, Date.now()), usage: {} });
  await endMediaJob(database(env), job.id, { status: 'failed', failure }, Date.now());
}
