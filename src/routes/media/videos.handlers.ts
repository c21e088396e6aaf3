import type { RouteHandler } from '@hono/zod-openapi';
import { withHold } from '../../accounts/billed';
import { randomBase62 } from '../../accounts/credentials';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { insertMediaJob, ownedMediaJob } from '../../db/media-jobs';
import type { AppEnv } from '../../env';
import { mediaHold } from './hold';
import { GatewayError } from '../../errors';
import { fileUrl } from '../../media/outputs';
import { loadReferences } from '../../media/references';
import { requireStoredUploads } from '../../media/upload-check';
import { VIDEO_JOB_HOLD_TTL_MS, pollMessage } from '../../jobs/video-jobs';
import { planVideo } from '../../media/videos/plan';
import { submitVideo as sendVideoUpstream, videoRailReadsFrameBytes } from '../../media/videos/rail';
import { toUsdNumber } from '../../money';
import { publicBaseUrl } from '../../urls';
import { requestGuard } from '../../web/policy';
import type { getVideo, submitVideo } from './videos.routes';

/**
 * `POST /v1/videos/generations`: checks (D7 durations), holds the price of the requested seconds,
 * sends the render upstream (so a refusal or an outage is answered now, and releases the hold),
 * records the job and queues its first poll. 202 with the amount held.
 */
export const submitVideoHandler: RouteHandler<typeof submitVideo, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planVideo(request, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  await Promise.all(plan.links.map((link) => requireStoredUploads(c.env, publicBaseUrl(c), link.urls, link.param, link.kind)));
  const id = `vidjob_${randomBase62(24)}`;
  const base = publicBaseUrl(c);
  // From its record on, the job settles or releases the hold (`src/media/videos/job.ts`).
  await withHold(c, mediaHold({ model: plan.model.id, route: 'videos', micros: plan.predictedMicros, purpose: 'video', ttlMs: VIDEO_JOB_HOLD_TTL_MS }), async (hold) => {
    const frames = plan.imageUrl && videoRailReadsFrameBytes(plan.route.provider) ? await loadReferences([plan.imageUrl], base, c.env.MEDIA, requestGuard(c), request.image_url ? 'image_url' : 'image_urls') : [];
    const upstream = await sendVideoUpstream(plan, frames[0], c.env);
    const now = Date.now();
    await insertMediaJob(database(c.env), {
      id,
      accountId: hold.accountId,
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
  // A lost first poll is sent again by the cron sweep; the job is recorded either way.
  await c.env.JOBS.send(pollMessage(id), { delaySeconds: 2 }).catch((err) => console.error('first video poll not queued', err));
  return c.json({ id, status: 'queued' as const, predicted_usd: toUsdNumber(plan.predictedMicros) }, 202);
};

/** `GET /v1/videos/generations/{id}`: the job as its owner sees it (D8 states); 404 for anyone else. */
export const getVideoHandler: RouteHandler<typeof getVideo, AppEnv> = async (c) => {
  const { id } = c.req.valid('param');
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const job = id.startsWith('vidjob_') ? await ownedMediaJob(database(c.env), id, auth.accountId) : undefined;
  if (!job || job.kind !== 'video') throw new GatewayError('not_found', `No video job ${id}.`);
  const key = job.status === 'completed' ? job.keys?.[0] : undefined;
  return c.json(
    {
      id: job.id,
      status: job.status,
      url: key ? fileUrl(publicBaseUrl(c), key) : null,
      ...(job.status === 'failed' && job.error ? { error: job.error } : {}),
      predicted_usd: toUsdNumber(job.predictedMicros),
      actual_usd: job.status === 'completed' && job.actualMicros !== null ? toUsdNumber(job.actualMicros) : null,
    },
    200,
  );
};
