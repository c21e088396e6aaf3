import type { AccountClient } from './account-client';

/**
 * How long a chat hold lives without news from its request. A request that dies with its Worker
 * (a crash, an eviction, a deploy) stops renewing, and the account's Durable Object releases its
 * hold within this time (docs/operators/money.md, "A hold lives only as long as its request can").
 */
export const CHAT_HOLD_LEASE_MS = 30_000;
/** How often a live request renews its lease: a third of it, so one lost renewal costs nothing. */
export const LEASE_RENEW_MS = 10_000;

/**
 * Keeps a hold alive as long as its request runs: renews the lease every `LEASE_RENEW_MS` until
 * the returned function is called. Requests shorter than that (most) never renew at all.
 */
export function keepHoldAlive(account: AccountClient, holdId: string, leaseMs = CHAT_HOLD_LEASE_MS, renewMs = LEASE_RENEW_MS): () => void {
  const timer = setInterval(() => {
    // A failed renewal is retried at the next tick; the lease has room for it.
    account.extendHold(holdId, leaseMs).catch(() => {});
  }, renewMs);
  return () => clearInterval(timer);
}
