import type { Context } from 'hono';
import type { RequestRecord } from '../../durable-objects/account/requests';
import type { Hold, HoldRequest } from '../../durable-objects/account/types';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { AccountClient } from './account-client';
import { holdFailureError } from './failures';
import { journalName, journalPays, settleDurably, type Settled } from './settlement';

/**
 * The one money lifecycle (docs/contributors/money.md, "One lifecycle, written once"): hold, work, then settle or release. Every billed
 * route and job goes through these functions, so each rule is written once here:
 * - a hold is placed for the calling key and tied to its request id, and a refusal is the spec's
 *   401/402/403/429 (`placeHold`);
 * - any failure between the hold and its settlement releases it, with the request's record (D26)
 *   when the caller has one (`withHold`, `releaseHold`);
 * - a settlement goes to the account, or to the settlement journal near the Worker when the
 *   account is far, and is idempotent per hold in both places (`settleHold`, `settleDurably`);
 * - a member's hold is settled, released and renewed in its organization (`AccountClient.forHold`).
 * Chat keeps its own hold and speculative dispatch (`src/products/chat/hold-dispatch.ts`, D21) for speed,
 * and settles and releases through `settleHold` and `releaseHold`. Deferred jobs (image, speech,
 * video, crawl, extract) hold through `withHold` when submitted and later settle or release
 * through `settleJobHold` and `releaseJobHold`.
 */

/** Whose money a hold is: the account a request or job named (a member's hold routes to its organization). */
export interface Payer {
  account: AccountClient;
  accountId: string;
}

/** What a route asks to hold; the key and the request id are the request's own. */
export type HoldAsk = Omit<HoldRequest, 'keyHash' | 'requestId'>;

/** Holds money for the calling key, tied to the request id; a refusal becomes the spec's 401/402/403/429. */
export async function placeHold(c: Context<AppEnv>, ask: HoldAsk): Promise<Hold> {
  const caller = c.get('caller');
  const hold = await caller.account.authorizeHold({ ...ask, keyHash: caller.keyHash, requestId: c.get('requestId') });
  if (!hold.ok) throw holdFailureError(hold);
  return hold;
}

/**
 * The one settlement policy: charges a hold durably before its cost is stated, through the
 * journal near the Worker when the account (or a member's organization) is far (`settleDurably`).
 * `colo` names the journal's location (`request.cf.colo`; none for a job). The charge is at most
 * the hold (D33: the account applies the same bound, and records the rest as the operator's loss).
 * Throws when the account
 * refuses (an unknown or released hold) or when neither place acknowledges the charge.
 */
export function settleHold(env: Env, colo: unknown, payer: Payer, hold: Pick<Hold, 'holdId' | 'amountMicros'>, chargeMicros: number, record?: RequestRecord): Promise<Settled> {
  const { holdId } = hold;
  return settleDurably({
    account: payer.account,
    accountId: payer.accountId,
    holdId,
    chargeMicros,
    heldMicros: hold.amountMicros,
    record,
    far: journalPays(payer.account.forHold(holdId).roundTripMs),
    journal: () => env.SETTLEMENT_JOURNAL.get(env.SETTLEMENT_JOURNAL.idFromName(journalName(colo, payer.accountId))),
  });
}

/**
 * The settlement of a deferred job (a queue message, a Durable Object alarm, a sync render's job):
 * the same policy, but no client waits on a distant account, so the account comes first and the
 * journal (named by no location) only takes what the account does not acknowledge.
 */
export function settleJobHold(env: Env, accountId: string, holdId: string, chargeMicros: number, record?: RequestRecord): Promise<Settled> {
  return settleDurably({
    account: new AccountClient(env, accountId),
    accountId,
    holdId,
    chargeMicros,
    record,
    far: false,
    journal: () => env.SETTLEMENT_JOURNAL.get(env.SETTLEMENT_JOURNAL.idFromName(journalName(undefined, accountId))),
  });
}

/** Frees a deferred job's hold, nothing charged; `record` (D26) stores its request as failed. Idempotent per hold. */
export function releaseJobHold(env: Env, accountId: string, holdId: string, record?: RequestRecord): Promise<unknown> {
  return releaseHold({ account: new AccountClient(env, accountId), accountId }, holdId, record);
}

/** Frees a hold, nothing charged; `record` (D26) stores the request as failed. Idempotent per hold. */
export function releaseHold(payer: Payer, holdId: string, record?: RequestRecord): Promise<unknown> {
  return payer.account.release(holdId, record);
}

/**
 * Holds, then runs `work` with the hold; if the work throws, releases the hold (with `failed()`'s
 * record, D26) and rethrows. The work settles the hold itself (`settle`, the one policy) or hands
 * it to a deferred job that will.
 */
export async function withHold<T>(
  c: Context<AppEnv>,
  ask: HoldAsk,
  work: (hold: Hold, settle: (chargeMicros: number, record?: RequestRecord) => Promise<Settled>) => Promise<T>,
  failed?: () => RequestRecord,
): Promise<T> {
  const hold = await placeHold(c, ask);
  const caller = c.get('caller');
  const settle = (chargeMicros: number, record?: RequestRecord) =>
    settleHold(c.env, c.req.raw.cf?.colo, caller, hold, chargeMicros, record).catch((err: unknown) => {
      console.error(`settlement of ${hold.holdId} failed`, err);
      throw new GatewayError('api_error', 'The charge could not be recorded.');
    });
  try {
    return await work(hold, settle);
  } catch (err) {
    await releaseHold(caller, hold.holdId, failed?.());
    throw err;
  }
}
