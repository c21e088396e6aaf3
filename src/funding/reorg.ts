import type { Client } from 'viem';
import { AccountClient } from '../accounts/account-client';
import type { Database } from '../db';
import { decidedDepositsAbove, forgetDeposit, markReversed, moveDeposit, X402_DEPOSIT_NOTE, type DepositRow } from '../db/funding';
import { formatUsd } from '../money';
import type { BlockHeader } from './chain';
import type { UsdcConfig } from './usdc-config';

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
/** Decided deposits checked per pass: those above the fork or the cursor (a few in steady state). */
const DECIDED_BATCH = 1000;

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
}

/**
 * Checks the credited and unmatched deposits above `above` (and not final) against the chain now.
 * Where a deposit's block changed: an unmatched one is forgotten and its range read again (it is
 * listed again where it landed, or not at all); a credited one whose transaction still carries its
 * transfer is moved there and stays credited; one whose transfer is gone is debited back
 * (`reverseDepositCredit`) and marked `reversed`.
 */
export async function recheckDecided(
  env: Env,
  db: Database,
  chain: Chain,
  client: Client,
  config: UsdcConfig,
  above: number,
  confirmed: number,
): Promise<RecheckOutcome> {
  const outcome: RecheckOutcome = { rewindTo: undefined, reversed: 0, moved: 0, forgotten: 0 };
  const headers = new Map<number, BlockHeader | null>();
  for (const deposit of await decidedDepositsAbove(db, above, DECIDED_BATCH)) {
    if (!headers.has(deposit.blockNumber)) headers.set(deposit.blockNumber, await chain.blockAt(client, deposit.blockNumber));
    const header = headers.get(deposit.blockNumber);
    // No block there yet (a node behind the one that named it, or one a reorg shortened): no evidence of a change; asked again next pass.
    if (!header || header.hash === deposit.blockHash) continue;
    outcome.rewindTo = Math.min(outcome.rewindTo ?? deposit.blockNumber - 1, deposit.blockNumber - 1);
    if (deposit.status === 'unmatched') {
      await forgetDeposit(db, deposit.id);
      outcome.forgotten++;
      continue;
    }
    const now = await chain.transferInTransaction(client, config, deposit.txHash as `0x${string}`, BigInt(deposit.amount));
    if (now) {
      await moveDeposit(db, deposit.id, { logIndex: now.logIndex, blockNumber: now.blockNumber, blockHash: now.blockHash });
      outcome.moved++;
      continue;
    }
    // Gone from the new chain, but its height is not confirmed there yet: the transaction may
    // still be mined again from the pool, so the credit is taken back only once it is.
    if (deposit.blockNumber > confirmed) continue;
    await reverseDepositCredit(env, deposit);
    await markReversed(db, deposit, Date.now());
    outcome.reversed++;
  }
  return outcome;
}

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
    idempotencyKey: `usdc-reorg:${deposit.id}:${deposit.reversals}`,
    source: x402 ? 'x402' : 'usdc',
    note: `${what} of $${formatUsd(micros)} taken back: a reorg removed tx ${deposit.txHash} from the chain`,
    suspendReason: `a reorg removed the ${what} of $${formatUsd(micros)} (tx ${deposit.txHash}) and the balance could not cover it`,
  });
}
