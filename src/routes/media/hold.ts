import type { Context } from 'hono';
import { holdFailureError } from '../../accounts/failures';
import type { AppEnv } from '../../env';
import type { Hold, RouteClass } from '../../../durable-objects/account/types';

/**
 * Holds a media request's exact price (media prices are known up front) for the calling key, named
 * `<purpose>:<model>` and tied to the request id; the refusal becomes the spec's 401/402/403/429.
 */
export async function holdMediaPrice(c: Context<AppEnv>, hold: { model: string; route: RouteClass; micros: number; purpose: string; ttlMs: number }): Promise<Hold> {
  const caller = c.get('caller');
  const result = await caller.account.authorizeHold({
    keyHash: caller.keyHash,
    model: hold.model,
    route: hold.route,
    minMicros: hold.micros,
    maxMicros: hold.micros,
    purpose: `${hold.purpose}:${hold.model}`,
    requestId: c.get('requestId'),
    ttlMs: hold.ttlMs,
  });
  if (!result.ok) throw holdFailureError(result);
  return result;
}
