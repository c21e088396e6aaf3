import type { RequestRecord } from '../../../durable-objects/account/requests';
import { releaseJobHold, settleJobHold } from '../../accounts/billed';
import { database } from '../../db';
import { endMediaJob, failMediaJob, type JobFailure, type MediaJobRow } from '../../db/media-jobs';
import type { GuardOptions } from '../../web/guard';
import { guardOptionsFromEnv } from '../../web/guard';
import { planImages } from '../images/plan';
import { produceImages, recordImageGeneration } from '../images/produce';
import { ImageGenerationRequest } from '../images/request';
import { hostOutput } from '../../media/outputs';
import { planSpeech } from '../speech/plan';
import { renderSpeech } from '../speech/render';
import { SpeechRequest } from '../speech/request';

/**
 * How long a claim on a render lasts: longer than any render can run while its Worker lives (an
 * image render's upstream deadline is 5 minutes, a speech render's two rounds of parts 4), so a
 * live render is never taken over; past it, the renderer is taken for dead.
 */
export const RENDER_CLAIM_LEASE_MS = 7 * 60 * 1000;

/** A finished render: what was hosted and charged, and the balance after. */
export interface FinishedRender {
  keys: string[];
  /** When the render ended (ms). */
  created: number;
  costMicros: number;
  balanceMicros: number;
}

/**
 * Renders a claimed job (image or speech), hosts its outputs, charges its hold and lists it, then
 * marks it `completed`. Safe to repeat: the settlement is idempotent by hold (a second one charges
 * nothing and reports the first charge), the listing row by id, and a job keeps its first ending.
 * Throws for the caller to retry or fail the job; never frees the hold itself.
 */
export async function renderJob(env: Env, job: MediaJobRow, guard: GuardOptions = guardOptionsFromEnv(env, new URL(job.base).host)): Promise<FinishedRender> {
  if (job.kind === 'speech') {
    const plan = planSpeech(SpeechRequest.parse(job.params), env);
    const key = await hostOutput(env.MEDIA, job.accountId, await renderSpeech(plan, env), 'audio/mpeg');
    return finish(env, job, { keys: [key], created: Date.now(), costMicros: plan.costMicros }, { characters: [...plan.input].length });
  }
  const plan = planImages(ImageGenerationRequest.parse(job.params), env);
  const images = await produceImages(env, plan, { accountId: job.accountId, base: job.base, guard });
  return finish(env, job, images, { images: images.keys.length }, () => recordImageGeneration(env, generationId(job.id), { accountId: job.accountId, keyId: job.keyId }, plan, images));
}

/**
 * D26: the record of the request that made a media job. A sync render's job id carries its
 * request id; an async job's record takes the request id its hold was placed with.
 */
export function mediaJobRecord(job: MediaJobRow, usage: Record<string, number>, now: number): RequestRecord {
  const sync = /^(imgjob|speechjob)_([0-9a-f]{32})$/.exec(job.id);
  const path = job.kind === 'speech' ? '/v1/audio/speech' : sync ? '/v1/images/generations' : '/v1/images/jobs';
  return {
    ...(sync ? { requestId: `req_${sync[2]}` } : {}),
    path,
    model: job.model,
    provider: null,
    startedAt: job.createdAt,
    durationMs: Math.max(0, now - job.createdAt),
    streamed: false,
    usage,
  };
}

/** Charges the hosted render, lists it (`list`, for kinds that are listed), and ends the job. */
async function finish(
  env: Env,
  job: MediaJobRow,
  hosted: { keys: string[]; created: number; costMicros: number },
  usage: Record<string, number>,
  list?: () => Promise<void>,
): Promise<FinishedRender> {
  const record = mediaJobRecord(job, usage, Date.now());
  const settled = await settleJobHold(env, job.accountId, job.holdId, hosted.costMicros, record);
  await list?.();
  await endMediaJob(database(env), job.id, { status: 'completed', keys: hosted.keys, actualMicros: settled.costMicros }, Date.now());
  return { keys: hosted.keys, created: hosted.created, costMicros: settled.costMicros, balanceMicros: settled.balanceMicros };
}

/**
 * Fails a job and frees its hold: by its renderer (`claim`: only while that claim still holds the
 * job) or by the sweep (no claim: only if nobody's claim is alive). A job another renderer took
 * over, or that has ended, is left as it is, and so is its hold.
 */
export async function failJob(env: Env, job: MediaJobRow, failure: JobFailure, now: number, claim?: string): Promise<boolean> {
  if (!(await failMediaJob(database(env), job.id, failure, now, claim))) return false;
  await releaseJobHold(env, job.accountId, job.holdId, mediaJobRecord(job, {}, now));
  return true;
}

/** The listing id of a job's generation: `gen_` and the job's random part. */
export function generationId(jobId: string): string {
  return `gen_${jobId.replace(/^(imgjob|speechjob)_/, '')}`;
}
