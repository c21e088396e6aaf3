import type { Context } from 'hono';
import { withHold } from '../../accounts/billed';
import { database } from '../../db';
import { insertMediaJob, type MediaJobRow } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { executionContext } from '../../execution-context';
import type { GuardOptions } from '../../web/guard';
import { publicBaseUrl } from '../../urls';
import { jobFailure } from './failure';
import { mediaHold } from './hold';
import { failJob, RENDER_CLAIM_LEASE_MS, renderJob, type FinishedRender } from './render';
import { MEDIA_JOB_HOLD_TTL_MS, renderMessage } from './jobs';

/** The backstop message arrives once the inline render's claim has lapsed (if it never finished). */
export const BACKSTOP_DELAY_SECONDS = RENDER_CLAIM_LEASE_MS / 1000 + 30;

/**
 * A sync render (`POST /v1/images/generations`, `POST /v1/audio/speech`) that finishes even if its
 * Worker does not. It holds the price for as long as a job's hold lives, records the render as a
 * job already claimed by this request (`processing`, a claim leased for `RENDER_CLAIM_LEASE_MS`),
 * queues a backstop message delayed past that lease, then renders inline for the client. If the
 * inline render finishes, the backstop finds the job ended and does nothing; if the Worker is cut
 * (the client left and `waitUntil`'s grace ran out, or the isolate died), the backstop finds the
 * claim lapsed, takes the render over and finishes it: hosted, listed, charged once (the
 * settlement is idempotent by hold). A lost backstop message is re-sent by the cron sweep. An
 * inline failure fails the job and frees the hold, unless a backstop has taken the render over.
 */
export async function renderDurably(
  c: Context<AppEnv>,
  render: { kind: 'image' | 'speech'; model: string; params: Record<string, unknown>; micros: number; guard?: GuardOptions },
): Promise<FinishedRender> {
  const claim = crypto.randomUUID();
  const ask = mediaHold({ model: render.model, route: render.kind === 'speech' ? 'speech' : 'images', micros: render.micros, purpose: render.kind, ttlMs: MEDIA_JOB_HOLD_TTL_MS });
  // From its record on, the job settles or releases the hold (`renderJob`, `failJob`).
  const job = await withHold(c, ask, async (hold) => {
    const now = Date.now();
    const job: MediaJobRow = {
      id: `${render.kind === 'speech' ? 'speechjob' : 'imgjob'}_${c.get('requestId').replace(/^req_/, '')}`,
      accountId: hold.accountId,
      keyId: hold.keyId,
      kind: render.kind,
      model: render.model,
      status: 'processing',
      params: render.params,
      base: publicBaseUrl(c),
      holdId: hold.holdId,
      predictedMicros: render.micros,
      actualMicros: null,
      keys: null,
      error: null,
      errorCode: null,
      upstream: null,
      claim,
      claimedUntil: now + RENDER_CLAIM_LEASE_MS,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await insertMediaJob(database(c.env), job);
    } catch (err) {
      console.error('sync render not recorded', err);
      throw new GatewayError('provider_unavailable', 'The render could not be started; retry shortly.', { retryAfter: 5 });
    }
    return job;
  });
  try {
    await c.env.JOBS.send(renderMessage(job), { delaySeconds: BACKSTOP_DELAY_SECONDS });
  } catch (err) {
    // The sweep re-sends the message of a processing job whose claim lapsed: still durable.
    console.error('sync render backstop not queued', err);
  }
  const work = renderJob(c.env, job, render.guard).catch(async (err: unknown) => {
    await failJob(c.env, job, jobFailure(err), Date.now(), claim);
    throw err;
  });
  // Only a shortcut: a client that leaves mid-render usually still gets it finished within
  // waitUntil's grace; past it, the backstop message finishes it.
  executionContext(c)?.waitUntil(work.catch(() => {}));
  return work;
}
