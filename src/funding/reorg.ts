import type { Client } from 'viem';
import { AccountClient } from '../accounts/account-client';
import type { Database } from '../db';
import { decidedDepositsAbove, forgetDeposit, markReversed, moveDeposit, unplacedDeposits, X402_DEPOSIT_NOTE, type DepositPosition, type DepositRow } from '../db/funding';
import { formatUsd } from '../money';
import type { BlockHeader } from './chain';
import type { UsdcConfig } from './usdc-config';
import { depositCreditKey } from './deposit-key';

/**
 * What the watcher does about reorgs of any depth (issue 35): it remembers the hash of the last
 * block of every range it read, and when the newest one changed it finds the fork point among
 * them and reads again from there; deposits above it are checked against the chain as it is now.
 */

/** A block whose logs the watcher read, as it was then. */
export interface ReadBlock {
  number: number;
  hash: string;
}

/** Read blocks remembered: at least the last this many, and every one the chain has not finalized. */
export const READ_BLOCKS_KEPT = 256;
/** Where the node does not serve `finalized`: blocks this far below the head count as final. */
export const FINALITY_FALLBACK_BLOCKS = 256;
/** Decided deposits read per page: those above the fork or the cursor (a few in steady state). */
const DECIDED_BATCH = 1000;
/** Decided deposits checked in one pass at most (each costs at most a block read and a receipt read); the next pass goes on. */
export const DECIDED_PER_PASS = 5000;

type Chain = typeof import('./chain');

/**
 * The highest remembered block still on the chain (binary search: a block is on it only if every
 * older one is), and the blocks still valid; `fork` is null when none is (a reorg deeper than the
 * memory: read again from below the oldest).
 */
export async function findFork(chain: Chain, client: Client, blocks: ReadBlock[]): Promise<{ fork: number | null; kept: ReadBlock[] }> {
  let low = 0;
  let high = blocks.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const block = blocks[mid]!;
    if ((await chain.blockAt(client, block.number))?.hash === block.hash) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return { fork: found >= 0 ? blocks[found]!.number : null, kept: blocks.slice(0, found + 1) };
}

/** At most this many, whatever `finalized` says (about 80 KiB: one Durable Object storage value holds 128). */
const READ_BLOCKS_MAX = 1024;

/** Keeps the read blocks a later fork search needs: the last `READ_BLOCKS_KEPT`, and all above `finalized` (up to `READ_BLOCKS_MAX`). */
export function pruneReadBlocks(blocks: ReadBlock[], finalized: number): ReadBlock[] {
  const firstKept = blocks.findIndex((block) => block.number > finalized);
  const from = Math.min(firstKept === -1 ? blocks.length : firstKept, Math.max(0, blocks.length - READ_BLOCKS_KEPT));
  return blocks.slice(Math.max(from, blocks.length - READ_BLOCKS_MAX));
}

export interface RecheckOutcome {
  /** Read again from just above this block (a deposit's block changed under it). */
  rewindTo: number | undefined;
  reversed: number;
  moved: number;
  forgotten: number;
  /** Where this pass stopped, its per-pass bound reached: the next pass goes on after it. Undefined when all were checked. */
  next: DepositPosition | undefined;
}

/**
 * Checks the credited and unmatched deposits above `above` (and not final) against the chain now,
 * page by page (keyset, `DECIDED_BATCH` a page) from `after` when a pass stopped there, at most
 * `limit` in one pass: the next goes on where it stopped (`next`), so none is skipped however many
 * a fork leaves above it. Where a deposit's block changed: an unmatched one is forgotten and its
 * range read again (it is listed again where it landed, or not at all); a credited one whose
 * transaction still carries its transfer is moved there and stays credited (a reversal's debit
 * made for it before is restored, `restoreDepositCredit`); one whose transfer is gone is debited
 * back (`reverseDepositCredit`) and marked `reversed`.
 */
export async function recheckDecided(
  env: Env,
  db: Database,
  chain: Chain,
  client: Client,
  config: UsdcConfig,
  window: { above: number; confirmed: number; after?: DepositPosition; limit?: number },
): Promise<RecheckOutcome> {
  const outcome: RecheckOutcome = { rewindTo: undefined, reversed: 0, moved: 0, forgotten: 0, next: undefined };
  const headers = new Map<number, BlockHeader | null>();
  const limit = window.limit ?? DECIDED_PER_PASS;
  let after = window.after;
  for (let checked = 0; ; ) {
    const size = Math.min(DECIDED_BATCH, limit - checked);
    if (size <= 0) {
      outcome.next = after;
      return outcome;
    }
    const page = await decidedDepositsAbove(db, window.above, size, after);
    for (const deposit of page) {
      if (!headers.has(deposit.blockNumber)) headers.set(deposit.blockNumber, await chain.blockAt(client, deposit.blockNumber));
      await recheckOne(env, db, chain, client, config, deposit, headers.get(deposit.blockNumber) ?? null, window.confirmed, outcome);
    }
    if (page.length < size) return outcome;
    checked += page.length;
    // Where the page ended as it was read: a row moved meanwhile is met again later, or was checked already.
    const last = page.at(-1)!;
    after = { blockNumber: last.blockNumber, logIndex: last.logIndex, id: last.id };
  }
}

async function recheckOne(env: Env, db: Database, chain: Chain, client: Client, config: UsdcConfig, deposit: DepositRow, header: BlockHeader | null, confirmed: number, outcome: RecheckOutcome): Promise<void> {
  // No block there yet (a node behind the one that named it, or one a reorg shortened): no evidence of a change; asked again next pass.
  if (!header || header.hash === deposit.blockHash) return;
  outcome.rewindTo = Math.min(outcome.rewindTo ?? deposit.blockNumber - 1, deposit.blockNumber - 1);
  if (deposit.status === 'unmatched') {
    await forgetDeposit(db, deposit.id);
    outcome.forgotten++;
    return;
  }
  const now = await chain.transferInTransaction(client, config, deposit.txHash as `0x${string}`, BigInt(deposit.amount));
  if (now) {
    await moveDeposit(db, deposit, { logIndex: now.logIndex, blockNumber: now.blockNumber, blockHash: now.blockHash }, await restoreDepositCredit(env, deposit));
    outcome.moved++;
    return;
  }
  // Gone from the new chain, but its height is not confirmed there yet: the transaction may
  // still be mined again from the pool, so the credit is taken back only once it is.
  if (deposit.blockNumber > confirmed) return;
  await reverseDepositCredit(env, deposit);
  await markReversed(db, deposit, Date.now());
  outcome.reversed++;
}

/** Unplaced x402 deposits a pass looks at. */
const UNPLACED_BATCH = 100;
/** An unplaced x402 deposit whose transaction the chain still does not show this long after it was credited is taken back. */
export const UNPLACED_GRACE_MS = 10 * 60 * 1000;

/**
 * Places the x402 deposits credited without a receipt (`UNPLACED`) at their transfer, read from
 * their transaction's receipt; the watcher then checks them as any other until their block is
 * final. One the chain still does not show `UNPLACED_GRACE_MS` after its credit was never mined
 * (or a reorg took it at once): its credit is taken back. How many are still unplaced.
 */
export async function placeUnplacedDeposits(env: Env, db: Database, chain: Chain, client: Client, config: UsdcConfig, now: number): Promise<{ placed: number; reversed: number; waiting: number }> {
  const outcome = { placed: 0, reversed: 0, waiting: 0 };
  for (const deposit of await unplacedDeposits(db, UNPLACED_BATCH)) {
    const found = await chain.transferInTransaction(client, config, deposit.txHash as `0x${string}`, BigInt(deposit.amount));
    if (found) {
      await moveDeposit(db, deposit, { logIndex: found.logIndex, blockNumber: found.blockNumber, blockHash: found.blockHash }, await restoreDepositCredit(env, deposit));
      outcome.placed++;
    } else if (now - deposit.seenAt >= UNPLACED_GRACE_MS) {
      await reverseDepositCredit(env, deposit);
      await markReversed(db, deposit, now);
      outcome.reversed++;
    } else {
      outcome.waiting++;
    }
  }
  return outcome;
}

const reversalKey = (deposit: Pick<DepositRow, 'id' | 'reversals'>) => `usdc-reorg:${deposit.id}:${deposit.reversals}`;

/**
 * Debits back the credit of a deposit a reorg took off the chain, once per reversal
 * (`usdc-reorg:<deposit>:<n>`), through the path card disputes take: a debit the balance cannot
 * cover takes it below zero and suspends the account (D28).
 */
export async function reverseDepositCredit(env: Env, deposit: DepositRow): Promise<void> {
  if (!deposit.accountId) return;
  const micros = Number(BigInt(deposit.amount));
  const stub = await new AccountClient(env, deposit.accountId).direct();
  const x402 = deposit.note === X402_DEPOSIT_NOTE;
  const what = x402 ? 'x402 payment' : 'USDC deposit';
  await stub.reverseCardPayment({
    amountMicros: micros,
    idempotencyKey: reversalKey(deposit),
    source: x402 ? 'x402' : 'usdc',
    note: `${what} of $${formatUsd(micros)} taken back: a reorg removed tx ${deposit.txHash} from the chain`,
    suspendReason: `a reorg removed the ${what} of $${formatUsd(micros)} (tx ${deposit.txHash}) and the balance could not cover it`,
  });
}

/**
 * A credited deposit found on the chain after all (moved by a reorg, or placed): a reversal's
 * debit made for it by a pass cut off before it marked the deposit `reversed` is credited back,
 * once, under the deposit's next credit key (the one it would take had it been marked reversed
 * and landed again). True when such a debit was made (the caller counts the reversal, so a later
 * one takes a fresh key); nothing is credited when none was.
 */
export async function restoreDepositCredit(env: Env, deposit: DepositRow): Promise<boolean> {
  if (!deposit.accountId) return false;
  const micros = Number(BigInt(deposit.amount));
  const stub = await new AccountClient(env, deposit.accountId).direct();
  const x402 = deposit.note === X402_DEPOSIT_NOTE;
  const restored = await stub.restoreCardPayment({
    amountMicros: micros,
    idempotencyKey: depositCreditKey({ id: deposit.id, reversals: deposit.reversals + 1 }),
    ofKey: reversalKey(deposit),
    source: x402 ? 'x402' : 'usdc',
    note: `${x402 ? 'x402 payment' : 'USDC deposit'} of $${formatUsd(micros)} credited again: tx ${deposit.txHash} is on the chain after all`,
  });
  return restored?.reversed ?? false;
}
