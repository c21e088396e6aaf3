import type { RouteHandler } from '@hono/zod-openapi';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { fileUrl } from '../../media/outputs';
import { planSpeech } from './plan';
import { formatUsd } from '../../money';
import { publicBaseUrl } from '../../urls';
import type { speech } from './routes';
import { renderDurably } from '../render/sync';

/**
 * `POST /v1/audio/speech`: hold the exact price of the input's characters (D16), render it in
 * parts within the provider's limit, join them into one MP3 hosted in R2, charge, answer the
 * link. Like an image render it is recorded as a job first (`renderDurably`), so it finishes and
 * is billed once if the client leaves, even if its Worker is cut; a failure is free.
 */
export const speechHandler: RouteHandler<typeof speech, AppEnv> = async (c) => {
  const request = c.req.valid('json');
  const plan = planSpeech(request, c.env);
  Object.assign(c.var.log, { model: plan.model.id, provider: plan.route.provider });
  const { keys, created, costMicros, balanceMicros } = await renderDurably(c, { kind: 'speech', model: plan.model.id, params: request, micros: plan.costMicros });
  return c.json({ created: Math.floor(created / 1000), data: keys.map((key) => ({ url: fileUrl(publicBaseUrl(c), key) })) }, 200, {
    [COST_HEADER]: formatUsd(costMicros),
    [CREDITS_HEADER]: formatUsd(balanceMicros),
  });
};
