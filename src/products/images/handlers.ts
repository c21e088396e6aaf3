import type { RouteHandler } from '@hono/zod-openapi';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import { database } from '../../db';
import { generationsPage, type GenerationKind } from '../../db/generations';
import type { AppEnv } from '../../env';
import { imageHoldMicros } from './cost';
import { planImages } from './plan';
import { fileUrl } from '../../media/outputs';
import { requireStoredUploads } from '../../media/upload-check';
import { formatUsd } from '../../money';
import { publicBaseUrl } from '../../urls';
import { requestGuard } from '../../web/policy';
import { decodeCursor, encodeCursor } from '../../routes/cursor';
import type { generateImages } from './routes';
import { renderDurably } from '../render/sync';

/**
 * `POST /v1/images/generations`: check and price the request, hold its worst case (`imageHoldMicros`),
 * render, host the exact bytes in R2 and charge the render (`imageChargeMicros`). The render is
 * recorded as a job first (`renderDurably`), so a client that leaves, even one whose Worker is cut,
 * still gets it finished, hosted, listed and billed once (spec); a failure releases the hold.
 */
export const generateImagesHandler: RouteHandler<typeof generateImages, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planImages(request, c.env); // 400/404 before any money moves
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  await requireStoredUploads(c.env, publicBaseUrl(c), plan.references, plan.referencesParam);
  const { keys, created, costMicros, balanceMicros } = await renderDurably(c, {
    kind: 'image',
    model: plan.model.id,
    params: request,
    micros: imageHoldMicros(plan),
    guard: requestGuard(c),
  });
  const base = publicBaseUrl(c);
  return c.json({ created: Math.floor(created / 1000), data: keys.map((key) => ({ url: fileUrl(base, key) })) }, 200, {
    [COST_HEADER]: formatUsd(costMicros),
    [CREDITS_HEADER]: formatUsd(balanceMicros),
  });
};
