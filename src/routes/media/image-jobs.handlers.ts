import type { RouteHandler } from '@hono/zod-openapi';
import { withHold } from '../../accounts/billed';
import { randomBase62 } from '../../accounts/credentials';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { insertMediaJob, ownedMediaJob } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { mediaHold } from './hold';
import { GatewayError } from '../../errors';
import { imageHoldMicros } from '../../media/images/cost';
import { planImages } from '../../media/images/plan';
import { MEDIA_JOB_HOLD_TTL_MS, renderMessage } from '../../jobs/render-jobs';
import { fileUrl } from '../../media/outputs';
import { requireStoredUploads } from '../../media/upload-check';
import { toUsdNumber } from '../../money';
import { publicBaseUrl } from '../../urls';
import type { getImageJob, submitImageJob } from './images.routes';

/**
 * `POST /v1/images/jobs`: the same checks and price as the sync route; holds the worst case,
 * records the job and queues its render (`src/jobs/render-jobs.ts`). 202 with the amount held.
 */
export const submitImageJobHandler: RouteHandler<typeof submitImageJob, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planImages(request, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  await requireStoredUploads(c.env, publicBaseUrl(c), plan.references, plan.referencesParam);
  const predicted = imageHoldMicros(plan);
  const id = `imgjob_${randomBase62(24)}`;
  // From its message on, the job settles or releases the hold (`src/media/jobs.ts`).
  await withHold(c, mediaHold({ model: plan.model.id, route: 'images', micros: predicted, purpose: 'image-job', ttlMs: MEDIA_JOB_HOLD_TTL_MS }), async (hold) => {
    const now = Date.now();
    try {
      await insertMediaJob(database(c.env), {
        id,
        accountId: hold.accountId,
        kind: 'image',
        model: plan.model.id,
        status: 'queued',
        params: request,
        base: publicBaseUrl(c),
        holdId: hold.holdId,
        predictedMicros: predicted,
        actualMicros: null,
        keys: null,
        error: null,
        upstream: null,
        createdAt: now,
        updatedAt: now,
      });
      await c.env.JOBS.send(renderMessage({ id, kind: 'image' }));
    } catch (err) {
      // Without its record or its message the job cannot run: nothing stays held. (A record whose
      // message failed is also rescued by the sweep, but the client is told to retry instead.)
      console.error('image job not queued', err);
      throw new GatewayError('provider_unavailable', 'The job could not be queued; retry shortly.', { retryAfter: 5 });
    }
  });
  return c.json({ id, status: 'queued' as const, predicted_usd: toUsdNumber(predicted) }, 202);
};

/** `GET /v1/images/jobs/{id}`: the job as its owner sees it; 404 for anyone else. */
export const getImageJobHandler: RouteHandler<typeof getImageJob, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const job = id.startsWith('imgjob_') ? await ownedMediaJob(database(c.env), id, auth.accountId) : undefined;
  if (!job || job.kind !== 'image') throw new GatewayError('not_found', `No image job ${id}.`);
  const base = publicBaseUrl(c);
  return c.json(
    {
      id: job.id,
      status: job.status,
      ...(job.status === 'completed' && job.keys ? { urls: job.keys.map((key) => fileUrl(base, key)) } : {}),
      predicted_usd: toUsdNumber(job.predictedMicros),
      actual_usd: job.status === 'completed' && job.actualMicros !== null ? toUsdNumber(job.actualMicros) : null,
      ...(job.status === 'failed' && job.error ? { error: job.error } : {}),
    },
    200,
  );
};
