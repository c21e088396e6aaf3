import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { like } from 'drizzle-orm';
import { database } from '../../src/db';
import { depositById, insertIntent, recordPaidDeposit, unplacedDepositId, X402_DEPOSIT_NOTE } from '../../src/db/funding';
import { deposits } from '../../src/db/schema';
import { reverseDepositCredit, UNPLACED_GRACE_MS } from '../../src/funding/reorg';
import { watchPass, type CursorStore } from '../../src/funding/watch';
import { creditPayment, type SettledPayment } from '../../src/x402/payment';
import { blockHash, chainConfig as config, depositsOfTx, head, landAfterAMint, memoryCursor, mine, payer, receiptOf, reorg, rpc, syncClock, transfer, transferRequest, withChain } from './chain-helpers';
import { accountStub, register } from './helpers';

/**
 * The edges of the watcher's reorg handling (issue 35) that its main tests do not reach: an x402
 * payment credited before its receipt could be read, a reorg between a pass's recheck and its
 * reads, a pass cut off between a reversal's debit and its record, and more decided deposits
 * above a fork than one page holds. Against the global setup's anvil, on real D1 and account
 * Durable Objects.
 */

const DEPTH = config.confirmations + 3;
const balanceOf = async (accountId: string) => (await accountStub(accountId).snapshot()).balanceMicros;
const creditRows = async (accountId: string) => (await accountStub(accountId).ledgerEntries(50)).filter((row) => row.kind === 'credit');

/** Passes until one finds nothing more to do (at most a few), summed. */
async function settle(cursor: CursorStore, now = Date.now(), limits: { recheckPerPass?: number } = {}) {
  const total = { seen: 0, credited: 0, unmatched: 0, reorged: 0, reversed: 0 };
  for (let pass = 0; pass < 4; pass++) {
    const outcome = await watchPass(withChain, config, cursor, now, limits);
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += outcome[key];
  }
  return total;
}

/** A payment as `settlePayment` answers it when the facilitator settled `hash` but its receipt could not be read. */
const settledWithoutReceipt = (hash: string, amountMicros: number): SettledPayment => ({
  response: { success: true, transaction: hash, network: 'eip155:8453', payer },
  amountMicros,
  payer,
  transfer: null,
});

beforeEach(syncClock);

describe('an x402 payment whose receipt could not be read', () => {
  it('is recorded as a credited deposit all the same, then placed at its transfer by the watcher, one row and one credit', async () => {
    const agent = await register();
    // Sent but not yet mined: the receipt cannot be read when the payment is credited.
    await rpc('evm_setAutomine', [false]);
    let hash: string;
    try {
      hash = await rpc<string>('eth_sendTransaction', [transferRequest(3_140_000)]);
      await creditPayment(withChain, agent.account_id, settledWithoutReceipt(hash, 3_140_000));
    } finally {
      await rpc('evm_setAutomine', [true]);
    }
    const id = unplacedDepositId(hash);
    expect(await depositById(database(env), id)).toMatchObject({ status: 'credited', accountId: agent.account_id, note: X402_DEPOSIT_NOTE, blockHash: '' });
    expect(await balanceOf(agent.account_id)).toBe(3_140_000);

    await mine(1);
    const mined = await receiptOf(hash);
    expect(mined).not.toBeNull();
    await mine(config.confirmations);
    await settle(memoryCursor(Number(mined!.blockNumber) - 1));
    expect(await depositsOfTx(hash)).toEqual([
      expect.objectContaining({ id, status: 'credited', accountId: agent.account_id, blockNumber: Number(mined!.blockNumber), blockHash: mined!.blockHash, logIndex: 0 }),
    ]);
    expect(await balanceOf(agent.account_id)).toBe(3_140_000);
    expect(await creditRows(agent.account_id)).toHaveLength(1);
  });

  it('is taken back when the chain still shows no such transaction 10 minutes after its credit', async () => {
    const agent = await register();
    const hash = `0x${crypto.randomUUID().replaceAll('-', '')}${crypto.randomUUID().replaceAll('-', '')}`;
    await creditPayment(withChain, agent.account_id, settledWithoutReceipt(hash, 2_000_000));
    expect(await balanceOf(agent.account_id)).toBe(2_000_000);
    const cursor = memoryCursor((await head()) - config.confirmations);
    // Within the grace: it may still be mined (a node behind the facilitator's).
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ reversed: 0, busy: true });
    expect(await balanceOf(agent.account_id)).toBe(2_000_000);
    expect(await watchPass(withChain, config, cursor, Date.now() + UNPLACED_GRACE_MS + 1_000)).toMatchObject({ reversed: 1 });
    expect(await balanceOf(agent.account_id)).toBe(0);
    expect(await depositById(database(env), unplacedDepositId(hash))).toMatchObject({ status: 'reversed', reversals: 1 });
    expect(await settle(cursor, Date.now() + UNPLACED_GRACE_MS + 1_000)).toMatchObject({ reversed: 0 });
    expect(await balanceOf(agent.account_id)).toBe(0);
  });
});

describe('a reorg between the recheck and the reads of one pass', () => {
  it("records an x402 settlement's transfer once when the reads find it moved to another block and log", async () => {
    const agent = await register();
    const start = await head();
    const snapshot = await rpc<string>('evm_snapshot');
    await mine(1);
    const sent = await transfer(4_440_000);
    expect(sent.block).toBe(start + 2);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    const now = Date.now();
    // Recorded and credited from its receipt, as `creditPayment` does.
    const id = `${sent.hash}:0`;
    expect(await recordPaidDeposit(database(env), { id, txHash: sent.hash, logIndex: 0, blockNumber: sent.block, blockHash: await blockHash(sent.block), blockTime: null, fromAddress: payer, amount: '4440000', status: 'credited', intentId: null, accountId: agent.account_id, seenAt: now, creditedAt: now, note: X402_DEPOSIT_NOTE })).toBe(true);
    // The reorg: the same transaction lands one block later, after another Transfer log (log index 1).
    expect(await rpc<boolean>('evm_revert', [snapshot])).toBe(true);
    await syncClock();
    await mine(2);
    expect(await landAfterAMint(signed)).toBe(sent.hash);
    const moved = await receiptOf(sent.hash);
    expect(Number(moved?.blockNumber)).toBe(start + 3);
    expect(Number(moved?.logs[0]?.logIndex)).toBe(1);
    await mine(config.confirmations);
    // The pass's recheck ran before the reorg (it looks above its cursor, where the old block is not); its reads see the new block.
    expect(await settle(memoryCursor(start + 2))).toMatchObject({ unmatched: 0, credited: 0 });
    expect(await depositsOfTx(sent.hash)).toEqual([expect.objectContaining({ id, status: 'credited', accountId: agent.account_id })]);
  });
});

/** A fresh account with an open intent for an amount no other test uses. */
async function intentFor(amountMicros: number) {
  const agent = await register();
  const createdAt = Date.now();
  const intent = { id: `pi_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`, accountId: agent.account_id, amountUsd: Math.floor(amountMicros / 1e6), amountMicros, status: 'open' as const, createdAt, expiresAt: createdAt + 3_600_000, depositId: null };
  expect(await insertIntent(database(env), intent)).toBe(true);
  return agent;
}

describe('reorgs deeper than the confirmations', () => {
  beforeEach(async () => {
    await mine(2 * DEPTH);
    await syncClock();
  });

  it("credits back, once, a reversal's debit a cut-off pass made, when the transfer lands again; a later reorg takes it back again", async () => {
    const agent = await intentFor(31_000_131);
    const cursor = memoryCursor(await head());
    const sent = await transfer(31_000_131);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    await reorg(DEPTH + 1);
    expect(await receiptOf(sent.hash)).toBeNull();
    // A pass debits the credit back and is cut off before it marks the deposit reversed.
    await reverseDepositCredit(withChain, (await depositById(database(env), `${sent.hash}:0`))!);
    expect(await balanceOf(agent.account_id)).toBe(0);
    // The transaction lands again before the pass is done again: the credit stands, so the debit is given back.
    expect(await rpc<string>('eth_sendRawTransaction', [signed])).toBe(sent.hash);
    await mine(config.confirmations);
    await settle(cursor);
    expect(await balanceOf(agent.account_id)).toBe(31_000_131);
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'credited', reversals: 1 });
    expect(await settle(cursor)).toMatchObject({ reversed: 0 });
    expect(await balanceOf(agent.account_id)).toBe(31_000_131);
    expect((await creditRows(agent.account_id)).map((row) => row.amountMicros)).toEqual(expect.arrayContaining([31_000_131, -31_000_131, 31_000_131]));
    expect(await creditRows(agent.account_id)).toHaveLength(3);
    // Removed again: taken back under a fresh key.
    await reorg(DEPTH + 1);
    expect(await settle(cursor)).toMatchObject({ reversed: 1 });
    expect(await balanceOf(agent.account_id)).toBe(0);
  });

  it('rechecks every decided deposit above a fork, more than a page of them, going on over passes where a bounded pass stopped', { timeout: 60_000 }, async () => {
    const fillerBlock = await head();
    const fillerHash = await blockHash(fillerBlock);
    const prefix = `0xfeed${crypto.randomUUID().replaceAll('-', '')}`;
    // 1,000 credited deposits in a block no reorg below touches, ahead of the one that matters in the walk's order.
    const fillers = Array.from({ length: 1000 }, (_, i) => ({
      id: `${prefix}${i}:0`, txHash: `${prefix}${i}`, logIndex: i, blockNumber: fillerBlock, blockHash: fillerHash, blockTime: null, fromAddress: payer, amount: '1', status: 'credited' as const, intentId: null, accountId: null, seenAt: Date.now(), creditedAt: Date.now(), note: null, reversals: 0,
    }));
    const db = database(env);
    try {
      const [first, ...rest] = Array.from({ length: 200 }, (_, i) => db.insert(deposits).values(fillers.slice(i * 5, i * 5 + 5)));
      await db.batch([first!, ...rest]);
      await mine(DEPTH + 2);
      const agent = await intentFor(32_000_242);
      const sent = await transfer(32_000_242);
      await mine(config.confirmations);
      expect(await settle(memoryCursor(sent.block - 1))).toMatchObject({ credited: 1 });
      await reorg(DEPTH + 1);
      expect(await receiptOf(sent.hash)).toBeNull();
      // A watcher whose recheck looks above the fillers' block, 1,000 deposits a pass.
      const cursor = memoryCursor(fillerBlock - 1);
      expect(await watchPass(withChain, config, cursor, Date.now(), { recheckPerPass: 1000 })).toMatchObject({ reversed: 0, busy: true });
      expect(await settle(cursor, Date.now(), { recheckPerPass: 1000 })).toMatchObject({ reversed: 1 });
      expect(await balanceOf(agent.account_id)).toBe(0);
      expect(await depositById(db, `${sent.hash}:0`)).toMatchObject({ status: 'reversed' });
    } finally {
      await db.delete(deposits).where(like(deposits.id, `${prefix}%`)).run();
    }
  });
});
