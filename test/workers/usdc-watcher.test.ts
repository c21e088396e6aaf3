import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { database } from '../../src/db';
import { depositById, expireIntents, insertIntent, recordDeposit, recordPaidDeposit, X402_DEPOSIT_NOTE } from '../../src/db/funding';
import { deposits, fundingIntents } from '../../src/db/schema';
import { ChainMismatchError } from '../../src/funding/chain-mismatch';
import { watchPass, type CursorStore } from '../../src/funding/watch';
import { eq } from 'drizzle-orm';
import { accountStub, ADMIN_TOKEN, bearer, call, expectError, json, register } from './helpers';
import { chainConfig, depositAddress, depositsOfTx, head, landAfterAMint, memoryCursor as sharedCursor, mine, payer, receiptOf, rpc, rpcUrl, syncClock, token, transfer, transferRequest } from './chain-helpers';

/**
 * The USDC watcher's passes one at a time, inside workerd on real D1 and account Durable Objects,
 * against a real local EVM node (anvil, started by the global setup, chain id 8453 like Base) with
 * a 6-decimal token as USDC. What the end-to-end test cannot time exactly: reorgs that drop, add
 * and move a transfer around the watcher's reads (`anvil_reorg`, `evm_snapshot`/`evm_revert`), a
 * transfer mined outside its intent's hour, an endpoint on another chain, and a pass cut off
 * between the credit and its record.
 */

const config = chainConfig;
const withChain = { ...env, BASE_RPC_URL: rpcUrl } as Env;
const blockTimeMs = async (block: number) => Number((await rpc<{ timestamp: string }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false])).timestamp) * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A watcher cursor kept in memory (chain-helpers.ts), whose block the tests read back. */
function memoryCursor(start: number): CursorStore & { value: () => number } {
  const cursor = sharedCursor(start);
  let block = start;
  return { ...cursor, get: async () => block, set: async (next) => void (block = next), value: () => block };
}

async function intentFor(amountMicros: number, times: { createdAt?: number; expiresAt?: number } = {}) {
  const agent = await register();
  const createdAt = times.createdAt ?? Date.now();
  const intent = {
    id: `pi_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`,
    accountId: agent.account_id,
    amountUsd: Math.floor(amountMicros / 1e6),
    amountMicros,
    status: 'open' as const,
    createdAt,
    expiresAt: times.expiresAt ?? createdAt + 3_600_000,
    depositId: null,
  };
  expect(await insertIntent(database(env), intent)).toBe(true);
  return { intent, agent, stub: accountStub(agent.account_id) };
}

const creditsOf = async (stub: ReturnType<typeof accountStub>) => (await stub.ledgerEntries(20)).filter((row) => row.kind === 'credit');
const intentStatus = async (id: string) => (await database(env).select().from(fundingIntents).where(eq(fundingIntents.id, id)).get())?.status;

/** Passes until one finds nothing more to do with the chain as it is (at most a few). */
async function settle(cursor: CursorStore, passConfig = config) {
  const total = { seen: 0, credited: 0, unmatched: 0, reorged: 0, reversed: 0 };
  for (let pass = 0; pass < 4; pass++) {
    const outcome = await watchPass(withChain, passConfig, cursor);
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += outcome[key];
  }
  return total;
}

describe('the USDC watcher', () => {
  beforeEach(syncClock);

  it('reads a transfer only once it has its confirmations, records it once however often it is read, and credits it once', async () => {
    const { intent, stub } = await intentFor(12_000_777);
    const cursor = memoryCursor(await head());
    const sent = await transfer(12_000_777);
    // Not yet confirmed: not even read.
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ seen: 0, credited: 0, busy: true });
    expect(cursor.value()).toBeLessThan(sent.block);
    await mine(config.confirmations - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ seen: 1, credited: 1 });
    // Read again (a rewound cursor, a retried pass): still one row, one credit.
    await cursor.set(sent.block - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ seen: 1, credited: 0 });
    expect(await depositsOfTx(sent.hash)).toEqual([expect.objectContaining({ status: 'credited', intentId: intent.id, blockTime: await blockTimeMs(sent.block) })]);
    expect(await creditsOf(stub)).toHaveLength(1);
  });

  it('credits nothing for a transfer a reorg drops before it is confirmed', async () => {
    const { intent, stub } = await intentFor(9_000_123);
    const cursor = memoryCursor(await head());
    const sent = await transfer(9_000_123);
    await watchPass(withChain, config, cursor);
    // Its block is replaced by an empty one; the chain moves on past the confirmations.
    await rpc('anvil_reorg', [1, []]);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ seen: 0, credited: 0 });
    expect(await depositsOfTx(sent.hash)).toEqual([]);
    expect(await creditsOf(stub)).toEqual([]);
    expect(await intentStatus(intent.id)).toBe('open');
  });

  it('forgets a deposit recorded from a block that was then replaced, reads its range again and credits nothing', async () => {
    const { stub } = await intentFor(9_100_456);
    const sent = await transfer(9_100_456);
    // Recorded as the earlier watcher did, from the unconfirmed head (or as a node answering from a stale view would make it).
    const block = await rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${sent.block.toString(16)}`, false]);
    await recordDeposit(database(env), { id: `${sent.hash}:0`, txHash: sent.hash, logIndex: 0, blockNumber: sent.block, blockHash: block.hash, blockTime: null, fromAddress: payer, amount: '9100456', status: 'pending', intentId: null, accountId: null, seenAt: Date.now(), creditedAt: null, note: null });
    const cursor = memoryCursor(sent.block);
    await rpc('anvil_reorg', [1, []]);
    await mine(config.confirmations);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ reorged: 1, credited: 0 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toBeUndefined();
    expect(cursor.value()).toBe(sent.block - 1);
    expect(await settle(cursor)).toMatchObject({ seen: 0, credited: 0 });
    expect(await creditsOf(stub)).toEqual([]);
  });

  it('finds a transfer a reorg adds at a height it has already read, and credits it once', async () => {
    const { intent, stub } = await intentFor(13_000_555);
    const start = await head();
    const cursor = memoryCursor(start);
    const snapshot = await rpc<string>('evm_snapshot');
    // Two empty blocks (fewer than the confirmations), and a pass that looks at the chain with them.
    await mine(config.confirmations - 1);
    await watchPass(withChain, config, cursor);
    // The reorg: back to the snapshot, and this time the first block after it holds the transfer.
    expect(await rpc<boolean>('evm_revert', [snapshot])).toBe(true);
    await syncClock();
    const sent = await transfer(13_000_555);
    expect(sent.block).toBe(start + 1);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'credited', intentId: intent.id });
    expect((await stub.snapshot()).balanceMicros).toBe(13_000_555);
    expect(await creditsOf(stub)).toHaveLength(1);
  });

  it('credits once a transfer a reorg moves to an earlier block with another log index', async () => {
    const { intent, stub } = await intentFor(14_000_888);
    const start = await head();
    const cursor = memoryCursor(start);
    const snapshot = await rpc<string>('evm_snapshot');
    await mine(1);
    const sent = await transfer(14_000_888);
    expect(sent.block).toBe(start + 2);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    await watchPass(withChain, config, cursor);
    // The reorg: the same signed transaction lands one block earlier, after another Transfer log.
    expect(await rpc<boolean>('evm_revert', [snapshot])).toBe(true);
    await syncClock();
    expect(await landAfterAMint(signed)).toBe(sent.hash);
    const moved = await receiptOf(sent.hash);
    expect(Number(moved?.blockNumber)).toBe(start + 1);
    const logIndex = Number(moved?.logs[0]?.logIndex);
    expect(logIndex).toBe(1);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    expect(await depositsOfTx(sent.hash)).toEqual([expect.objectContaining({ id: `${sent.hash}:${logIndex}`, status: 'credited', intentId: intent.id, blockNumber: start + 1 })]);
    expect((await stub.snapshot()).balanceMicros).toBe(14_000_888);
    expect(await creditsOf(stub)).toHaveLength(1);
  });

  it('keeps a transfer mined after its intent expired for the operator, even while the intent still reads open', async () => {
    const now = Date.now();
    // Expired an hour ago; nothing has marked it expired yet (that happens only when a new intent is made).
    const { intent, stub } = await intentFor(15_000_321, { createdAt: now - 7_200_000, expiresAt: now - 3_600_000 });
    const cursor = memoryCursor(await head());
    const sent = await transfer(15_000_321);
    await mine(config.confirmations - 1);
    expect(await settle(cursor)).toMatchObject({ unmatched: 1, credited: 0 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'unmatched', accountId: null });
    expect(await creditsOf(stub)).toEqual([]);
    expect(await intentStatus(intent.id)).toBe('open');
  });

  it('keeps a transfer mined before its intent was made for the operator', async () => {
    const cursor = memoryCursor(await head());
    const sent = await transfer(16_000_654);
    // The intent is made after the second of the transfer's block (as by someone who saw it mined).
    const mined = await blockTimeMs(sent.block);
    while (Date.now() < mined + 1000) await sleep(50);
    const { intent, stub } = await intentFor(16_000_654);
    await mine(config.confirmations - 1);
    expect(await settle(cursor)).toMatchObject({ unmatched: 1, credited: 0 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'unmatched' });
    expect(await creditsOf(stub)).toEqual([]);
    expect(await intentStatus(intent.id)).toBe('open');
  });

  it('credits a transfer mined in its intent\'s last seconds and confirmed after the intent expired', async () => {
    const { intent, stub } = await intentFor(17_000_987, { createdAt: Date.now() - 3_590_000, expiresAt: Date.now() + 1_500 });
    const cursor = memoryCursor(await head());
    const sent = await transfer(17_000_987);
    expect(await blockTimeMs(sent.block)).toBeLessThanOrEqual(intent.expiresAt);
    // The hour ends before the confirmations; a new intent elsewhere marks it expired.
    while (Date.now() <= intent.expiresAt) await sleep(50);
    await expireIntents(database(env), Date.now());
    expect(await intentStatus(intent.id)).toBe('expired');
    await mine(config.confirmations - 1);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    expect(await intentStatus(intent.id)).toBe('paid');
    expect((await stub.snapshot()).balanceMicros).toBe(17_000_987);
  });

  it('reads and credits nothing from an endpoint on another chain', async () => {
    const { intent, stub } = await intentFor(18_000_246);
    const cursor = memoryCursor(await head());
    const start = cursor.value();
    const sent = await transfer(18_000_246);
    await mine(config.confirmations - 1);
    const elsewhere = { ...config, chainId: 1 };
    await expect(watchPass(withChain, elsewhere, cursor)).rejects.toBeInstanceOf(ChainMismatchError);
    expect(cursor.value()).toBe(start);
    expect(await depositsOfTx(sent.hash)).toEqual([]);
    expect(await creditsOf(stub)).toEqual([]);
    // The same chain under its own id: credited.
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    expect(await intentStatus(intent.id)).toBe('paid');
  });

  it('credits once when a pass is cut off after the credit and before its record, then run again', async () => {
    const { intent, stub } = await intentFor(11_000_321);
    const cursor = memoryCursor(await head());
    const sent = await transfer(11_000_321);
    await mine(config.confirmations - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ credited: 1 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'credited', accountId: intent.accountId, intentId: intent.id });
    expect((await stub.snapshot()).balanceMicros).toBe(11_000_321);

    // As if the Worker died after the account's credit and before D1 learned of it.
    const db = database(env);
    await db.update(deposits).set({ status: 'pending', accountId: null, intentId: null, creditedAt: null }).where(eq(deposits.txHash, sent.hash)).run();
    await db.update(fundingIntents).set({ status: 'open', depositId: null }).where(eq(fundingIntents.id, intent.id)).run();
    await cursor.set(sent.block - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ credited: 1 });
    expect((await stub.snapshot()).balanceMicros).toBe(11_000_321);
    expect(await creditsOf(stub)).toHaveLength(1);
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'credited' });
  });

  it('keeps a deposit no open intent matches for the operator, crediting no one', async () => {
    const cursor = memoryCursor(await head());
    const sent = await transfer(3_141_592);
    await mine(config.confirmations - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ unmatched: 1, credited: 0 });
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'unmatched', accountId: null, amount: '3141592' });
  });

  it('pays an intent with one transfer only: a second of the same amount in its hour is kept for the operator', async () => {
    const { intent, stub } = await intentFor(19_000_135);
    const cursor = memoryCursor(await head());
    const first = await transfer(19_000_135);
    const second = await transfer(19_000_135);
    await mine(config.confirmations - 1);
    expect(await settle(cursor)).toMatchObject({ credited: 1, unmatched: 1 });
    expect(await depositById(database(env), `${first.hash}:0`)).toMatchObject({ status: 'credited', intentId: intent.id });
    expect(await depositById(database(env), `${second.hash}:0`)).toMatchObject({ status: 'unmatched' });
    expect(await creditsOf(stub)).toHaveLength(1);
  });
});

/**
 * Reorgs deeper than the confirmations (issue 35): the watcher remembers the blocks it read, and
 * when one changed it rewinds to the fork point and reads again, so a transfer such a reorg adds
 * at a height already read is credited, one it removes after crediting is debited back
 * (suspending an account that cannot cover it, D28), and one it moves stays credited once. Each
 * test first buries the earlier tests' blocks below the reorgs' reach.
 */
describe('the USDC watcher and reorgs deeper than the confirmations', () => {
  const DEPTH = config.confirmations + 3;
  /** `anvil_reorg`: the last `depth` blocks replaced by new ones holding `txs` (each at its offset from the first new block). */
  const reorg = async (depth: number, txs: [unknown, number][] = []) => {
    await rpc('anvil_reorg', [depth, txs]);
    await syncClock();
  };
  beforeEach(async () => {
    await mine(2 * DEPTH);
    await syncClock();
  });

  it('credits a transfer that such a reorg places at a height the watcher already read', async () => {
    const { intent, stub } = await intentFor(21_000_313);
    const cursor = memoryCursor(await head());
    await mine(DEPTH + 2);
    // The watcher reads past the heights the reorg will replace.
    await settle(cursor);
    const read = await cursor.get();
    expect(read).toBe((await head()) - config.confirmations + 1);
    await reorg(DEPTH, [[transferRequest(21_000_313), 0]]);
    await mine(1);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    const [deposit] = await database(env).select().from(deposits).where(eq(deposits.intentId, intent.id)).all();
    expect(deposit!.blockNumber).toBeLessThanOrEqual(read!);
    expect((await stub.snapshot()).balanceMicros).toBe(21_000_313);
    expect(await creditsOf(stub)).toHaveLength(1);
    expect(await intentStatus(intent.id)).toBe('paid');
  });

  it('lists for the operator a transfer such a reorg places at a read height that no intent matches', async () => {
    const cursor = memoryCursor(await head());
    await mine(DEPTH + 2);
    await settle(cursor);
    await reorg(DEPTH, [[transferRequest(2_718_281), 1]]);
    expect(await settle(cursor)).toMatchObject({ unmatched: 1 });
    const res = await call('/admin/deposits/unmatched', { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    const listed = ((await res.json()) as { data: { amount_usdc: string }[] }).data;
    expect(listed.some((row) => row.amount_usdc === '2.718281')).toBe(true);
  });

  it('takes back once a credit whose transfer such a reorg removed, and opens its intent again', async () => {
    const { intent, stub } = await intentFor(22_000_424);
    const cursor = memoryCursor(await head());
    const sent = await transfer(22_000_424);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    expect((await stub.snapshot()).balanceMicros).toBe(22_000_424);
    await reorg(DEPTH + 1);
    expect(await receiptOf(sent.hash)).toBeNull();
    expect(await settle(cursor)).toMatchObject({ reversed: 1, credited: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(0);
    const debits = (await stub.ledgerEntries(50)).filter((row) => row.kind === 'credit' && row.amountMicros < 0);
    expect(debits).toEqual([expect.objectContaining({ amountMicros: -22_000_424, source: 'usdc' })]);
    expect(await depositsOfTx(sent.hash)).toEqual([expect.objectContaining({ status: 'reversed', reversals: 1 })]);
    expect(await intentStatus(intent.id)).toBe('open');
    expect((await stub.snapshot()).suspended).toBeNull();
  });

  it('takes back a removed credit even when another open intent took its amount meanwhile: the first intent is then expired', async () => {
    const { intent, stub } = await intentFor(26_000_868);
    const cursor = memoryCursor(await head());
    await transfer(26_000_868);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    // Paid intents free their amount: another account's intent takes it.
    const other = await intentFor(26_000_868);
    await reorg(DEPTH + 1);
    expect(await settle(cursor)).toMatchObject({ reversed: 1 });
    expect((await stub.snapshot()).balanceMicros).toBe(0);
    expect(await intentStatus(intent.id)).toBe('expired');
    expect(await intentStatus(other.intent.id)).toBe('open');
  });

  it('suspends an account that spent a credit such a reorg then removed (D28)', async () => {
    const { agent, stub } = await intentFor(23_000_535);
    const cursor = memoryCursor(await head());
    await transfer(23_000_535);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    // Spent (an operator's debit stands in for billed requests).
    expect(await stub.debit({ amountMicros: -20_000_000, idempotencyKey: `spent:${agent.account_id}`, source: 'operator', note: 'spent' })).toMatchObject({ ok: true });
    await reorg(DEPTH + 1);
    expect(await settle(cursor)).toMatchObject({ reversed: 1 });
    const snapshot = await stub.snapshot();
    expect(snapshot.balanceMicros).toBe(3_000_535 - 23_000_535);
    expect(snapshot.suspended?.reason).toMatch(/reorg/);
    const refused = await call('/agent/account', bearer(agent.api_key));
    expect(refused.status).toBe(403);
  });

  it('credits again, once, a removed transfer that lands again', async () => {
    const { stub } = await intentFor(24_000_646);
    const cursor = memoryCursor(await head());
    const sent = await transfer(24_000_646);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    await mine(config.confirmations);
    await settle(cursor);
    await reorg(DEPTH + 1);
    expect(await settle(cursor)).toMatchObject({ reversed: 1 });
    // The same signed transaction is mined again (as a node re-includes a reorged-out one).
    expect(await rpc<string>('eth_sendRawTransaction', [signed])).toBe(sent.hash);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1, reversed: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(24_000_646);
    expect(await depositById(database(env), `${sent.hash}:0`)).toMatchObject({ status: 'credited', reversals: 1 });
    expect(await settle(cursor)).toMatchObject({ credited: 0, reversed: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(24_000_646);
  });

  it('takes back an x402 credit whose settlement a reorg removed before the watcher read it, and credits its account again when it lands again', async () => {
    const agent = await register();
    const stub = accountStub(agent.account_id);
    const sent = await transfer(1_230_000);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    const block = await rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${sent.block.toString(16)}`, false]);
    // Recorded and credited as `creditPayment` does, from the receipt, before the watcher reads the block.
    const id = `${sent.hash}:0`;
    const now = Date.now();
    expect(await recordPaidDeposit(database(env), { id, txHash: sent.hash, logIndex: 0, blockNumber: sent.block, blockHash: block.hash, blockTime: null, fromAddress: payer, amount: '1230000', status: 'credited', intentId: null, accountId: agent.account_id, seenAt: now, creditedAt: now, note: X402_DEPOSIT_NOTE })).toBe(true);
    await stub.credit({ amountMicros: 1_230_000, idempotencyKey: `usdc:${id}`, source: 'x402', note: 'x402 payment' });
    const cursor = memoryCursor(sent.block - 1);
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ reversed: 0 });
    await reorg(1);
    // Gone, but its height has no confirmations on the new chain yet: it may still be mined again, so nothing is taken back.
    expect(await settle(cursor)).toMatchObject({ reversed: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(1_230_000);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ reversed: 1 });
    expect((await stub.snapshot()).balanceMicros).toBe(0);
    expect(await depositById(database(env), id)).toMatchObject({ status: 'reversed', accountId: agent.account_id });
    expect(await rpc<string>('eth_sendRawTransaction', [signed])).toBe(sent.hash);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1, reversed: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(1_230_000);
    expect((await creditsOf(stub)).map((row) => [row.amountMicros, row.source])).toEqual(expect.arrayContaining([[1_230_000, 'x402'], [-1_230_000, 'x402']]));
    expect(await depositById(database(env), id)).toMatchObject({ status: 'credited', accountId: agent.account_id, reversals: 1 });
  });

  it('keeps a credit whose transaction such a reorg moved to another block, and lists nothing', async () => {
    const { stub } = await intentFor(25_000_757);
    const cursor = memoryCursor(await head());
    const sent = await transfer(25_000_757);
    const signed = await rpc<string>('eth_getRawTransactionByHash', [sent.hash]);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ credited: 1 });
    // The same transaction, one block later on the new chain.
    await reorg(DEPTH + 1, [[signed, DEPTH - 2]]);
    const moved = await receiptOf(sent.hash);
    expect(Number(moved?.blockNumber)).toBe(sent.block + 1);
    await mine(config.confirmations);
    expect(await settle(cursor)).toMatchObject({ reversed: 0, credited: 0 });
    expect((await stub.snapshot()).balanceMicros).toBe(25_000_757);
    expect(await depositsOfTx(sent.hash)).toEqual([expect.objectContaining({ id: `${sent.hash}:0`, status: 'credited', blockNumber: Number(moved?.blockNumber), logIndex: Number(moved?.logs[0]?.logIndex) })]);
  });
});

describe('POST /agent/fund against an endpoint on another chain', () => {
  const app = createApp();
  const gateway = (overrides: Partial<Env>) => (path: string, init: RequestInit) =>
    app.fetch(new Request(`https://gateway.test${path}`, init), { ...env, BASE_RPC_URL: rpcUrl, USDC_DEPOSIT_ADDRESS: depositAddress, USDC_CONTRACT: token, ...overrides } as Env);

  it('answers 502 funding_unavailable and opens no intent; on the configured chain it opens one', async () => {
    const agent = await register();
    await expectError(await gateway({ USDC_CHAIN_ID: '1' })('/agent/fund', bearer(agent.api_key, json({ amount_usd: 77 }))), 502, 'funding_unavailable', 'api_error');
    const count = async () => (await database(env).select().from(fundingIntents).where(eq(fundingIntents.accountId, agent.account_id)).all()).length;
    expect(await count()).toBe(0);
    // The anvil node answers 8453, Base's id and the default.
    const res = await gateway({})('/agent/fund', bearer(agent.api_key, json({ amount_usd: 77 })));
    expect(res.status).toBe(200);
    expect(await count()).toBe(1);
  });
});

describe("the operator's credit of an unmatched deposit", () => {
  it('credits one transfer once when two operators credit it to two accounts at the same moment', async () => {
    const [first, second] = [await register(), await register()];
    const id = `0x${crypto.randomUUID().replaceAll('-', '').padEnd(64, '0')}:0`;
    await recordDeposit(database(env), { id, txHash: id.slice(0, 66), logIndex: 0, blockNumber: 1, blockHash: '0xb', blockTime: 1, fromAddress: '0xa', amount: '4000000', status: 'unmatched', intentId: null, accountId: null, seenAt: Date.now(), creditedAt: null, note: null });
    const credit = (accountId: string) => call(`/admin/deposits/${id}/credit`, bearer(ADMIN_TOKEN, json({ account_id: accountId, reason: 'support ticket' })));
    const answers = await Promise.all([credit(first.account_id), credit(second.account_id)]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 400]);
    const balances = await Promise.all([first, second].map(async (agent) => (await accountStub(agent.account_id).snapshot()).balanceMicros));
    expect(balances.sort()).toEqual([0, 4_000_000]);
    expect(await depositById(database(env), id)).toMatchObject({ status: 'credited' });
  });
});
