import { database, type Database } from '../db';
import {
  claimIntent,
  decidedDepositsAbove,
  forgetDeposit,
  hasIntentsOpenSince,
  intentsOpenAt,
  markUnmatched,
  pendingDeposits,
  recordDeposit,
  setDepositBlockTime,
  settleDeposit,
  X402_DEPOSIT_NOTE,
  type DepositPosition,
  type DepositRow,
} from '../db/funding';
import type { BlockHeader } from './chain';
import { creditFunding } from './credit';
import { depositCreditKey } from './deposit-key';
import { usdcAmount } from './intents';
import { findFork, FINALITY_FALLBACK_BLOCKS, placeUnplacedDeposits, pruneReadBlocks, recheckDecided, type ReadBlock } from './reorg';
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

/**
 * Where the watcher keeps its place: the last block whose logs it has read (always a confirmed
 * one), and the blocks it read as they were then (`ReadBlock`, oldest first), to find the fork
 * point of a reorg.
 */
export interface CursorStore {
  get(): Promise<number | undefined>;
  set(block: number): Promise<void>;
  readBlocks(): Promise<ReadBlock[]>;
  setReadBlocks(blocks: ReadBlock[]): Promise<void>;
  /** A recheck of decided deposits a pass left unfinished (`recheckDecided`'s bound): where it goes on. */
  recheckWalk(): Promise<RecheckWalk | undefined>;
  setRecheckWalk(walk: RecheckWalk | undefined): Promise<void>;
}

/** An unfinished recheck: the block it checks above, and the last deposit it checked. */
export interface RecheckWalk {
  above: number;
  after: DepositPosition;
}

export interface PassOutcome {
  /** Open intents, deposits awaiting confirmations or finality, or blocks not yet read remain: look again soon. */
  busy: boolean;
  seen: number;
  credited: number;
  unmatched: number;
  /** Deposits whose block a reorg replaced: pending or unmatched ones forgotten, credited ones moved or reversed. */
  reorged: number;
  /** Credits taken back because a reorg removed their transfer. */
  reversed: number;
}

/**
 * One pass of the USDC watcher. It first checks that the endpoint serves the configured chain
 * (`ChainMismatchError` otherwise: nothing is read or credited). It reads the token's `Transfer`
 * logs to the deposit address up to the confirmed height (`head - USDC_CONFIRMATIONS + 1`), and
 * remembers the hash of the last block of each range read. Reorgs of any depth within that memory
 * are caught: when the newest remembered block's hash changed, the fork point is the highest one
 * still on the chain; the watcher rewinds there and reads again, so a transfer a reorg added at a
 * height already read is found, and deposits above the fork are checked (`recheckDecided`: an
 * unmatched one forgotten, a credited one moved with its transaction or, if its transfer is gone,
 * debited back and `reversed`). Deposits below the `finalized` block are settled: never checked
 * again. Each (transaction, log) is recorded once; each pending deposit's block is read for its
 * hash and timestamp, and a deposit is credited to the one intent of exactly its amount that was
 * open when its block was mined (D17), claimed first, then credited under `depositCreditKey`, so a
 * pass done again credits nothing twice and no intent is paid by two transfers; one no intent
 * matches is kept as `unmatched` for the operator.
 */
export async function watchPass(env: Env, config: UsdcConfig, cursor: CursorStore, now = Date.now(), limits: { recheckPerPass?: number } = {}): Promise<PassOutcome> {
  const db = database(env);
  const chain = await import('./chain');
  const client = chain.chainClient(config);
  const head = await chain.headBlock(client);
  // The newest block with `confirmations` blocks on it, itself included: nothing above it is read.
  const confirmed = head - config.confirmations + 1;
  const finalized = Math.min(confirmed, (await chain.finalizedBlock(client)) ?? head - FINALITY_FALLBACK_BLOCKS);
  const outcome: PassOutcome = { busy: false, seen: 0, credited: 0, unmatched: 0, reorged: 0, reversed: 0 };

  const start = await cursor.get();
  let readBlocks = await cursor.readBlocks();
  let from = (start ?? Math.max(0, confirmed - FIRST_LOOKBACK)) + 1;
  // Deposits above this are checked against the chain now: those a fork replaced, and those in the blocks about to be read.
  let checkAbove = from - 1;
  const newest = readBlocks.at(-1);
  // A changed hash is a fork; no block at that height (a node behind, or between backends) is no evidence of one.
  const newestNow = newest ? await chain.blockAt(client, newest.number) : null;
  const forked = Boolean(newest && newestNow && newestNow.hash !== newest.hash);
  if (newest && forked) {
    const { fork, kept } = await findFork(chain, client, readBlocks);
    const rewind = fork ?? Math.max(0, Math.min(finalized, readBlocks[0]!.number - 1));
    console.warn(`USDC watcher: reorg below block ${newest.number}; reading again from block ${rewind + 1}`);
    readBlocks = kept;
    await cursor.setReadBlocks(readBlocks);
    from = Math.min(from, rewind + 1);
    checkAbove = from - 1;
    await cursor.set(from - 1);
  }
  // Before the reads, so a moved deposit is known at its new place when its log is read there. A
  // walk a bounded pass left unfinished goes on from where it stopped, over the range it began
  // with, unless a fork (or a rewind below that range) makes it start again.
  const above = Math.max(checkAbove, finalized);
  const walk = await cursor.recheckWalk();
  const resume = walk && !forked && walk.above <= above ? walk : undefined;
  const rechecked = await recheckDecided(env, db, chain, client, config, { above: resume?.above ?? above, after: resume?.after, confirmed, limit: limits.recheckPerPass });
  if (rechecked.next || walk) await cursor.setRecheckWalk(rechecked.next ? { above: resume?.above ?? above, after: rechecked.next } : undefined);
  if (rechecked.next) outcome.busy = true;
  outcome.reorged += rechecked.moved + rechecked.forgotten + rechecked.reversed;
  outcome.reversed += rechecked.reversed;
  // x402 payments credited before their receipt could be read: placed at their transfer, or taken back.
  const unplaced = await placeUnplacedDeposits(env, db, chain, client, config, now);
  outcome.reversed += unplaced.reversed;
  if (unplaced.waiting + unplaced.placed + unplaced.reversed > 0) outcome.busy = true;
  if (rechecked.rewindTo !== undefined && rechecked.rewindTo + 1 < from) {
    from = rechecked.rewindTo + 1;
    await cursor.set(rechecked.rewindTo);
  }

  for (let range = 0; range < RANGES_PER_PASS && from <= confirmed; range++) {
    const to = Math.min(confirmed, from + LOG_RANGE - 1);
    const before = await chain.blockAt(client, to);
    const logs = await chain.transfersTo(client, config, from, to);
    const after = await chain.blockAt(client, to);
    // The range changed while it was read: read it again next pass.
    if (!before || before.hash !== after?.hash) break;
    for (const log of logs) {
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
    readBlocks = pruneReadBlocks([...readBlocks.filter((block) => block.number < from), { number: to, hash: before.hash }], finalized);
    await cursor.setReadBlocks(readBlocks);
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
    if (!blocks.has(deposit.blockNumber)) blocks.set(deposit.blockNumber, await chain.blockAt(client, deposit.blockNumber));
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
  // A decided deposit not yet final may still be taken away by a reorg: keep watching until it is.
  if (outcome.reorged > 0 || (await decidedDepositsAbove(db, finalized, 1)).length > 0) outcome.busy = true;
  return outcome;
}

/**
 * Credits a confirmed deposit to the intent open when its block was mined; false (and
 * `unmatched`) when there is none, more than one, or another deposit paid it already.
 */
async function creditDeposit(env: Env, db: Database, deposit: DepositRow, blockTimeMs: number, now: number): Promise<boolean> {
  if (deposit.blockTime !== blockTimeMs) await setDepositBlockTime(db, deposit.id, blockTimeMs);
  const micros = BigInt(deposit.amount);
  // An x402 settlement a reorg took off and that landed again: its paying account's, as before.
  if (deposit.note === X402_DEPOSIT_NOTE && deposit.accountId) return creditTo(env, db, deposit, deposit.accountId, null, 'x402', now);
  const candidates = micros <= BigInt(Number.MAX_SAFE_INTEGER) ? await intentsOpenAt(db, Number(micros), blockTimeMs, deposit.id) : [];
  const intent = candidates.length === 1 ? candidates[0] : undefined;
  if (!intent || !(await claimIntent(db, intent.id, deposit.id))) {
    await markUnmatched(db, deposit.id);
    return false;
  }
  return creditTo(env, db, deposit, intent.accountId, intent.id, 'usdc', now);
}

/** Credits `deposit` to `accountId` under its key and records it; false (and `unmatched`) when the account no longer exists. */
async function creditTo(env: Env, db: Database, deposit: DepositRow, accountId: string, intentId: string | null, source: 'usdc' | 'x402', now: number): Promise<boolean> {
  const micros = Number(BigInt(deposit.amount));
  const credited = await creditFunding(env, {
    accountId,
    amountMicros: micros,
    source,
    idempotencyKey: depositCreditKey(deposit),
    note: `${usdcAmount(micros)} USDC, tx ${deposit.txHash} log ${deposit.logIndex}${deposit.reversals > 0 ? ', landed again after a reorg' : ''}`,
  });
  if (!credited) {
    // The account was deleted meanwhile: the money waits for the operator.
    await markUnmatched(db, deposit.id);
    return false;
  }
  await settleDeposit(db, deposit, accountId, intentId, now, deposit.note ?? undefined);
  return true;
}
