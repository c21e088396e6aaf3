import type { JournalEntry } from '../../durable-objects/settlement-journal/journal';
import type { RequestRecord } from '../../durable-objects/account/requests';
import type { AccountClient } from './account-client';
import { holdOwner } from './hold-owner';

/**
 * From this distance (the account Durable Object's shortest recent round trip, ms) a settlement is
 * also written to a journal near the Worker, and the answer leaves when either is durable. A
 * Durable Object in the same place answers in about a millisecond; one on another continent, 100
 * to 250.
 */
export const JOURNAL_FROM_RTT_MS = 5;
/** Journals per location, so that one busy location spreads its writes. */
export const JOURNAL_SHARDS = 8;

export interface Settled {
  costMicros: number;
  balanceMicros: number;
}

/** The journal near this Worker for an account: one per location (`request.cf.colo`) and shard. */
export function journalName(colo: unknown, accountId: string): string {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < accountId.length; i++) hash = Math.imul(hash ^ accountId.charCodeAt(i), 0x01000193);
  return `${typeof colo === 'string' ? colo : 'local'}:${(hash >>> 0) % JOURNAL_SHARDS}`;
}

/** Whether a settlement should also be journaled: the account's Durable Object is known to be far. */
export function journalPays(roundTripMs: number | undefined): boolean {
  return roundTripMs !== undefined && roundTripMs >= JOURNAL_FROM_RTT_MS;
}

/**
 * Charges a hold, durably, before its cost is stated (docs/contributors/money.md, "Durable near the Worker when the account is far"). Near its account, the
 * settlement is one call to the account's Durable Object, and the balance stated is the one it
 * answers. Far from it (`far`, see `journalPays`), the settlement is written to the journal near
 * the Worker, which sends it on to the account at once and again until the account has answered;
 * the answer leaves once the journal has stored it. Nothing of it waits in this isolate's channel
 * to the account, so the next request is never queued behind a distant settlement. The balance
 * stated with a journaled charge is this isolate's view: the last balance the account reported
 * minus the charges this isolate has settled since. When the chosen place cannot be reached, the
 * other one takes the settlement (both are idempotent per hold, so one that landed unacknowledged
 * is not charged twice); only when neither can does this throw.
 */
export async function settleDurably(options: {
  account: AccountClient;
  accountId: string;
  holdId: string;
  chargeMicros: number;
  /**
   * The hold's amount, where the caller knows it: the cost a journaled settlement states is at
   * most this, as the account will charge it (D33: `Ledger.settle` bounds the charge by the hold).
   */
  heldMicros?: number;
  /** What the request was, stored with the charge for its lookup (D26); carried by the journal too. */
  record?: RequestRecord | undefined;
  /** Whether to journal it: `journalPays(account.roundTripMs)`. */
  far: boolean;
  journal: () => { record(entry: JournalEntry): Promise<void> };
}): Promise<Settled> {
  const chargeMicros = Math.max(0, Math.round(options.chargeMicros));
  // D29: a member's hold is its organization's, settled there and journaled for it.
  const owned = { ...options, account: options.account.forHold(options.holdId), accountId: holdOwner(options.accountId, options.holdId) };
  const [first, second] = options.far ? [journaled, withAccount] : [withAccount, journaled];
  try {
    return await first(owned, chargeMicros);
  } catch (err) {
    if (err instanceof SettlementRefused) throw err;
    console.error(`settlement of ${options.holdId} not acknowledged; trying the ${options.far ? 'account' : 'journal'}`, err);
    return second(owned, chargeMicros);
  }
}

type Place = (options: Parameters<typeof settleDurably>[0], chargeMicros: number) => Promise<Settled>;

/** The account answered, and refused: a definite answer, which the other place would only repeat. */
export class SettlementRefused extends Error {}

const withAccount: Place = async ({ account, holdId, record }, chargeMicros) => {
  const result = await account.settle(holdId, chargeMicros, record ? { record } : {});
  if (!result.ok) throw new SettlementRefused(`settlement of ${holdId} failed: ${result.reason}`);
  return { costMicros: result.chargedMicros, balanceMicros: result.balanceMicros };
};

const journaled: Place = async ({ account, accountId, holdId, journal, record, heldMicros }, chargeMicros) => {
  // The whole bill goes to the account, which records what passes the hold as the operator's loss.
  await journal().record({ accountId, holdId, chargeMicros, ...(record ? { record } : {}) });
  const charged = Math.min(chargeMicros, heldMicros ?? chargeMicros);
  account.noteJournaledCharge(charged);
  return { costMicros: charged, balanceMicros: account.balanceAfterPendingMicros };
};
