import type { RouteHandler } from '@hono/zod-openapi';
import { CHAT_HOLD_LEASE_MS, keepHoldAlive } from '../../accounts/hold-lease';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { holdMediaPrice } from './hold';
import { executionContext } from '../../execution-context';
import { fileUrl, hostOutput } from '../../media/outputs';
import { planSpeech, renderSpeech } from '../../media/speech/render';
import { formatUsd } from '../../money';
import { publicBaseUrl } from '../../urls';
import type { speech } from './speech.routes';

/**
 * `POST /v1/audio/speech`: hold the exact price of the input's characters (D16), render it in
 * parts within the provider's limit, join them into one MP3 hosted in R2, charge, answer the
 * link. Like an image render, it finishes and is billed if the client leaves; a failure is free.
 */
export const speechHandler: RouteHandler<typeof speech, AppEnv> = async (c) => {
  const plan = planSpeech(c.req.valid('json'), c.env);
  const caller = c.get('caller');
  const hold = await holdMediaPrice(c, { model: plan.model.id, micros: plan.costMicros, purpose: 'speech', ttlMs: CHAT_HOLD_LEASE_MS });
  const stopLease = keepHoldAlive(caller.account, hold.holdId);

  const work = (async () => {
    let key: string;
    try {
      key = await hostOutput(c.env.MEDIA, hold.accountId, await renderSpeech(plan, c.env), 'audio/mpeg');
    } catch (err) {
      stopLease();
      await caller.account.release(hold.holdId);
      throw err;
    }
    stopLease();
    const settled = await caller.account.settle(hold.holdId, plan.costMicros);
    if (!settled.ok) throw new Error(`settlement of ${hold.holdId} failed: ${settled.reason}`);
    return { key, costMicros: settled.chargedMicros, balanceMicros: settled.balanceMicros };
  })();
  executionContext(c)?.waitUntil(work.catch(() => {}));
  const { key, costMicros, balanceMicros } = await work;
  return c.json({ created: Math.floor(Date.now() / 1000), data: [{ url: fileUrl(publicBaseUrl(c), key) }] }, 200, {
    [COST_HEADER]: formatUsd(costMicros),
    [CREDITS_HEADER]: formatUsd(balanceMicros),
  });
};
