import { database, type Database } from '../db';
import { forgetDeposit, hasOpenIntents, markUnmatched, openIntentForAmount, pendingDeposits, recordDeposit, settleDeposit, type DepositRow } from '../db/funding';
import { blockHashAt, chainClient, headBlock, transfersTo } from './chain';
import { creditFunding } from './credit';
import { usdcAmount } from './intents';
import type { UsdcConfig } from './usdc-config';

/** Blocks per `eth_getLogs` call: within what public Base endpoints accept. */
const LOG_RANGE = 500;
/** Ranges read per pass, so a long outage is caught up over a few alarms, not in one call. */
const RANGES_PER_PASS = 10;
/** A first pass starts this far back, so a transfer made just before the watcher woke is seen. */
const FIRST_LOOKBACK = 20;
const PENDING_BATCH = 100;

/** Where the watcher keeps its place: the last block whose logs it has read. */
export interface CursorStore {
  get(): Promise<number | undefined>;
  set(block: number): Promise<void>;
}

export interface PassOutcome {
  /** Open intents or unconfirmed deposits remain: look again soon. */
  busy: boolean;
  seen: number;
  credited: number;
  unmatched: number;
  reorged: number;
}

/**
 * One pass of the USDC watcher: reads new `Transfer` logs of the token to the deposit address and
 * records each (transaction, log) once; then, for every deposit with enough confirmations,
 * re-reads the hash of its block. A deposit whose block was reorged away is forgotten and its
 * range read again (the transfer may be in another block now, or nowhere); a confirmed one is
 * credited to the open intent of exactly its amount, under `usdc:<tx>:<log>` as idempotency key,
 * so a pass retried after a crash credits nothing twice; a deposit no intent matches is kept as
 * `unmatched` for the operator.
 */
export async function watchPass(env: Env, config: UsdcConfig, cursor: CursorStore, now = Date.now()): Promise<PassOutcome> {
  const db = database(env);
  const client = chainClient(config);
  const head = await headBlock(client);
  const outcome: PassOutcome = { busy: false, seen: 0, credited: 0, unmatched: 0, reorged: 0 };

  let from = ((await cursor.get()) ?? Math.max(0, head - FIRST_LOOKBACK)) + 1;
  for (let range = 0; range < RANGES_PER_PASS && from <= head; range++) {
    const to = Math.min(head, from + LOG_RANGE - 1);
    for (const log of await transfersTo(client, config, from, to)) {
      outcome.seen++;
      await recordDeposit(db, {
        id: `${log.txHash}:${log.logIndex}`,
        txHash: log.txHash,
        logIndex: log.logIndex,
        blockNumber: log.blockNumber,
        blockHash: log.blockHash,
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

  const pending = await pendingDeposits(db, PENDING_BATCH);
  let rewindTo: number | undefined;
  for (const deposit of pending) {
    if (head - deposit.blockNumber + 1 < config.confirmations) {
      outcome.busy = true;
      continue;
    }
    if ((await blockHashAt(client, deposit.blockNumber)) !== deposit.blockHash) {
      await forgetDeposit(db, deposit.id);
      rewindTo = Math.min(rewindTo ?? deposit.blockNumber - 1, deposit.blockNumber - 1);
      outcome.reorged++;
      continue;
    }
    if (await creditDeposit(env, db, deposit, now)) outcome.credited++;
    else outcome.unmatched++;
  }
  if (rewindTo !== undefined) {
    await cursor.set(rewindTo);
    outcome.busy = true;
  }
  if (pending.length === PENDING_BATCH || (await hasOpenIntents(db, now))) outcome.busy = true;
  return outcome;
}

/** Credits a confirmed deposit to the open intent of exactly its amount; false (and `unmatched`) when none. */
async function creditDeposit(env: Env, db: Database, deposit: DepositRow, now: number): Promise<boolean> {
  const micros = BigInt(deposit.amount);
  const intent = micros <= BigInt(Number.MAX_SAFE_INTEGER) ? await openIntentForAmount(db, Number(micros)) : undefined;
  if (!intent) {
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
