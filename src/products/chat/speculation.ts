import type { ChatRoute } from '../../catalog/types';
import type { Evidence } from '../../accounts/account-client';

/**
 * D21: when a chat request may go upstream while its hold is still being placed. The evidence is
 * this isolate's last answer from the account's Durable Object for the same key: a hold granted
 * at most `FRESH_MS` ago that left at least `COVER` times this request's worst case available.
 * Everything else (a cold isolate, a key not seen lately, a low balance, a provider that bills
 * aborted requests, `SPECULATIVE_DISPATCH=off`) keeps the strict order: hold, then upstream.
 */

/** How old the evidence may be. */
export const FRESH_MS = 5_000;
/** How many times over the last seen available balance must cover this request's worst case. */
export const COVER = 4;
/** Requests of one account an isolate sends early at once: what a refusal can cost is bounded by it. */
export const MAX_IN_FLIGHT = 16;


export function maySpeculate(input: {
  enabled: boolean;
  evidence: Evidence | undefined;
  worstCaseMicros: number;
  route: ChatRoute;
  inFlight: number;
  now: number;
}): boolean {
  const { evidence } = input;
  return (
    input.enabled &&
    evidence !== undefined &&
    input.now - evidence.at <= FRESH_MS &&
    input.worstCaseMicros > 0 &&
    evidence.availableMicros >= COVER * input.worstCaseMicros &&
    input.route.billsAbortedRequests !== true &&
    input.inFlight < MAX_IN_FLIGHT
  );
}
