import type { RouteHandler } from '@hono/zod-openapi';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { ownedMediaJob } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { fileUrl } from '../../media/outputs';
import { requireStoredUploads } from '../../media/upload-check';
import { UNSUPPORTED_HEADER } from '../../billing/headers';
import { submitVideoJob } from './job';
import { planVideo } from './plan';
import { toUsdNumber } from '../../money';
import { publicBaseUrl } from '../../urls';
import type { getVideo, submitVideo as submitVideoRoute } from './routes';

/**
 * `POST /v1/videos/generations`: checks (D7 durations) and the uploads it names, then the job holds
 * the price of the requested seconds, sends the render upstream and is recorded (`submitVideoJob`).
 * 202 with the amount held.
 */
export const submitVideoHandler: RouteHandler<typeof submitVideoRoute, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planVideo(request, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  await Promise.all(plan.links.map((link) => requireStoredUploads(c.env, publicBaseUrl(c), link.urls, link.param, link.kind)));
  const { id } = await submitVideoJob(c, request, plan);
  // The spec requires a prompt; an endpoint with none (lip-sync) does not get it, and says so.
  if (plan.endpoint.omit?.includes('prompt')) c.header(UNSUPPORTED_HEADER, 'prompt');
  return c.json({ id, status: 'queued' as const, predicted_usd: toUsdNumber(plan.predictedMicros) }, 202);
};

/** `GET /v1/videos/generations/{id}`: the job as its owner sees it (D8 states); 404 for anyone else (a sub-key that did not submit it included, D35). */
export const getVideoHandler: RouteHandler<typeof getVideo, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const job = id.startsWith('vidjob_') ? await ownedMediaJob(database(c.env), id, auth.accountId, ownDataOf(auth)) : undefined;
  if (!job || job.kind !== 'video') throw new GatewayError('not_found', `No video job ${id}.`);
  const key = job.status === 'completed' ? job.keys?.[0] : undefined;
  return c.json(
    {
      id: job.id,
      status: job.status,
      url: key ? fileUrl(publicBaseUrl(c), key) : null,
      ...(job.status === 'failed' && job.error ? { error: job.error, error_code: job.errorCode ?? 'provider_error' } : {}),
      predicted_usd: toUsdNumber(job.predictedMicros),
      actual_usd: job.status === 'completed' && job.actualMicros !== null ? toUsdNumber(job.actualMicros) : null,
    },
    200,
  );
};
