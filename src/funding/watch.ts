import { database, type Database } from '../db';
import {
  claimIntent,
  forgetDeposit,
  hasIntentsOpenSince,
  intentsOpenAt,
  markUnmatched,
  pendingDeposits,
  recordDeposit,
  setDepositBlockTime,
  settleDeposit,
  type DepositRow,
} from '../db/funding';
import type { BlockHeader } from './chain';
import { creditFunding } from './credit';
import { usdcAmount } from './intents';
import type { UsdcConfig } from './usdc-config';

/** Blocks per `eth_getLogs` call: within what public Base endpoints accept. */
const LOG_RANGE = 500;
/** Ranges read per pass, so a long outage is caught up over a few alarms, not in one call. */
const RANGES_PER_PASS = 10;
/** A first pass starts this far below the confirmed height, so a transfer made just before the watcher woke is seen. */
const FIRST_LOOKBACK = 20;
const PENDING_BATCH = 100;
/**
 * Passes go on this long after the last intent closed: a transfer mined in an intent's last
 * seconds is confirmed (and matched to it) after it closed, and is credited within seconds, not
 * at the next cron.
 */
const CLOSED_INTENT_GRACE_MS = 10 * 60 * 1000;

/** Where the watcher keeps its place: the last block whose logs it has read (always a confirmed one). */
export interface CursorStore {
  get(): Promise<number | undefined>;
  set(block: number): Promise<void>;
}

export interface PassOutcome {
  /** Open intents, deposits awaiting confirmations or blocks not yet read remain: look again soon. */
  busy: boolean;
  seen: number;
  credited: number;
  unmatched: number;
  reorged: number;
}

/**
 * One pass of the USDC watcher. It first checks that the endpoint serves the configured chain
 * (`ChainMismatchError` otherwise: nothing is read or credited). It reads the token's `Transfer`
 * logs to the deposit address only up to the confirmed height (`head - USDC_CONFIRMATIONS + 1`),
 * so a block is read once, after the reorgs it is expected to survive: a transfer a reorg drops
 * below that depth is never seen, one it adds or moves (to a lower or higher block) is read where
 * it finally landed. Each (transaction, log) is recorded once; then each recorded deposit's block
 * is read again, for its hash (a block replaced since its logs were read, by a reorg deeper
 * than the confirmations or a node that answered from a stale view: the deposit is forgotten and
 * the range read again) and its timestamp. A deposit is credited to the one intent of exactly its
 * amount that was open when its block was mined (D17: exactly what arrived), claimed first, then
 * credited under `usdc:<tx>:<log>`, so a pass done again credits nothing twice and no intent is
 * paid by two transfers; one no intent matches (another amount, a block before the intent was
 * made or after it expired) is kept as `unmatched` for the operator.
 */
export async function watchPass(env: Env, config: UsdcConfig, cursor: CursorStore, now = Date.now()): Promise<PassOutcome> {
  const db = database(env);
  const { blockAt, chainClient, headBlock, transfersTo } = await import('./chain');
  const client = chainClient(config);
  const head = await headBlock(client);
  // The newest block with `confirmations` blocks on it, itself included: nothing above it is read.
  const confirmed = head - config.confirmations + 1;
  const outcome: PassOutcome = { busy: false, seen: 0, credited: 0, unmatched: 0, reorged: 0 };

  let from = ((await cursor.get()) ?? Math.max(0, confirmed - FIRST_LOOKBACK)) + 1;
  for (let range = 0; range < RANGES_PER_PASS && from <= confirmed; range++) {
    const to = Math.min(confirmed, from + LOG_RANGE - 1);
    for (const log of await transfersTo(client, config, from, to)) {
      outcome.seen++;
      await recordDeposit(db, {
        id: `${log.txHash}:${log.logIndex}`,
        txHash: log.txHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
        blockTime: null,
        fromAddress: log.from,
        amount: log.value.toString(),
        status: 'pending',
        intentId: null,
        accountId: null,
        seenAt: now,
        creditedAt: null,
        note: null,
      });
    }
    await cursor.set(to);
    from = to + 1;
  }
  if (from <= confirmed) outcome.busy = true;

  const pending = await pendingDeposits(db, PENDING_BATCH);
  const blocks = new Map<number, BlockHeader | null>();
  let rewindTo: number | undefined;
  for (const deposit of pending) {
    // Only a deposit recorded by an earlier watcher (which read unconfirmed blocks) can be above it.
    if (deposit.blockNumber > confirmed) {
      outcome.busy = true;
      continue;
    }
    if (!blocks.has(deposit.blockNumber)) blocks.set(deposit.blockNumber, await blockAt(client, deposit.blockNumber));
    const block = blocks.get(deposit.blockNumber);
    if (!block || block.hash !== deposit.blockHash) {
      await forgetDeposit(db, deposit.id);
      rewindTo = Math.min(rewindTo ?? deposit.blockNumber - 1, deposit.blockNumber - 1);
      outcome.reorged++;
      continue;
    }
    if (await creditDeposit(env, db, deposit, block.timeMs, now)) outcome.credited++;
    else outcome.unmatched++;
  }
  if (rewindTo !== undefined) {
    await cursor.set(Math.min(rewindTo, (await cursor.get()) ?? rewindTo));
    outcome.busy = true;
  }
  if (pending.length === PENDING_BATCH || (await hasIntentsOpenSince(db, now - CLOSED_INTENT_GRACE_MS))) outcome.busy = true;
  return outcome;
}

/**
 * Credits a confirmed deposit to the intent open when its block was mined; false (and
 * `unmatched`) when there is none, more than one, or another deposit paid it already.
 */
async function creditDeposit(env: Env, db: Database, deposit: DepositRow, blockTimeMs: number, now: number): Promise<boolean> {
  if (deposit.blockTime !== blockTimeMs) await setDepositBlockTime(db, deposit.id, blockTimeMs);
  const micros = BigInt(deposit.amount);
  const candidates = micros <= BigInt(Number.MAX_SAFE_INTEGER) ? await intentsOpenAt(db, Number(micros), blockTimeMs, deposit.id) : [];
  const intent = candidates.length === 1 ? candidates[0] : undefined;
  if (!intent || !(await claimIntent(db, intent.id, deposit.id))) {
    await markUnmatched(db, deposit.id);
    return false;
  }
  const credited = await creditFunding(env, {
    accountId: intent.accountId,
    amountMicros: Number(micros),
    source: 'usdc',
    idempotencyKey: depositCreditKey(deposit.id),
    note: `${usdcAmount(Number(micros))} USDC, tx ${deposit.txHash} log ${deposit.logIndex}`,
  });
  if (!credited) {
    // The account was deleted meanwhile: the money waits for the operator.
    await markUnmatched(db, deposit.id);
    return false;
  }
  await settleDeposit(db, deposit, intent.accountId, intent.id, now);
  return true;
}

/** The one idempotency key of a deposit's credit, automatic or by the operator's hand. */
export function depositCreditKey(depositId: string): string {
  return `usdc:${depositId}`;
}
