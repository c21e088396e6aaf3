import type { HoldAsk } from '../../accounts/billed';
import type { RouteClass } from '../../../durable-objects/account/types';

/**
 * What a media request holds: its exact price (media prices are known up front), named
 * `<purpose>:<model>`; `withHold` ties it to the calling key and the request id.
 */
export function mediaHold(hold: { model: string; route: RouteClass; micros: number; purpose: string; ttlMs: number }): HoldAsk {
  return { model: hold.model, route: hold.route, minMicros: hold.micros, maxMicros: hold.micros, purpose: `${hold.purpose}:${hold.model}`, ttlMs: hold.ttlMs };
}
