import type { RouteHandler } from '@hono/zod-openapi';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { ownedMediaJob } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { planImages } from './plan';
import { submitImageJob } from '../render/jobs';
import { fileUrl } from '../../media/outputs';
import { requireStoredUploads } from '../../media/upload-check';
import { toUsdNumber } from '../../money';
import { publicBaseUrl } from '../../urls';
import type { getImageJob, submitImageJob as submitImageJobRoute } from './routes';

/**
 * `POST /v1/images/jobs`: the same checks and price as the sync route; the job holds the worst
 * case, is recorded and queued (`submitImageJob`). 202 with the amount held.
 */
export const submitImageJobHandler: RouteHandler<typeof submitImageJobRoute, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planImages(request, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  await requireStoredUploads(c.env, publicBaseUrl(c), plan.references, plan.referencesParam);
  const { id, predictedMicros } = await submitImageJob(c, request, plan);
  return c.json({ id, status: 'queued' as const, predicted_usd: toUsdNumber(predictedMicros) }, 202);
};

/** `GET /v1/images/jobs/{id}`: the job as its owner sees it; 404 for anyone else (another account, or a sub-key that did not submit it: D35). */
export const getImageJobHandler: RouteHandler<typeof getImageJob, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const job = id.startsWith('imgjob_') ? await ownedMediaJob(database(c.env), id, auth.accountId, ownDataOf(auth)) : undefined;
  if (!job || job.kind !== 'image') throw new GatewayError('not_found', `No image job ${id}.`);
  const base = publicBaseUrl(c);
  return c.json(
    {
      id: job.id,
      status: job.status,
      ...(job.status === 'completed' && job.keys ? { urls: job.keys.map((key) => fileUrl(base, key)) } : {}),
      predicted_usd: toUsdNumber(job.predictedMicros),
      actual_usd: job.status === 'completed' && job.actualMicros !== null ? toUsdNumber(job.actualMicros) : null,
      ...(job.status === 'failed' && job.error ? { error: job.error, error_code: job.errorCode ?? 'provider_error' } : {}),
    },
    200,
  );
};
