import { env } from 'cloudflare:workers';
import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, inject, it } from 'vitest';
import { database } from '../../src/db';
import { depositById, insertIntent } from '../../src/db/funding';
import { deposits, fundingIntents } from '../../src/db/schema';
import type { UsdcConfig } from '../../src/funding/usdc-config';
import { watchPass, type CursorStore } from '../../src/funding/watch';
import { eq } from 'drizzle-orm';
import { accountStub, register } from './helpers';

/**
 * The USDC watcher's passes one at a time, inside workerd on real D1 and account Durable Objects,
 * against a real local EVM node (anvil, started by the global setup) with a 6-decimal token as
 * USDC. What the end-to-end test cannot time exactly: a deposit read before and after its block is
 * reorged away, and a pass cut off between the credit and its record.
 */

const { rpcUrl, token, payer, depositAddress } = inject('chain');
const config: UsdcConfig = { rpcUrl, token: token as `0x${string}`, depositAddress: depositAddress as `0x${string}`, confirmations: 3 };
const withChain = { ...env, BASE_RPC_URL: rpcUrl } as Env;
const ERC20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)']);

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/**
 * The payer sends `micros` of the token to the deposit address. Anvil automines, but it answers
 * `eth_sendTransaction` before the block is sealed, so the receipt is polled for (as viem's
 * `waitForTransactionReceipt` does); reading it once failed in CI with a null receipt.
 */
async function transfer(micros: number): Promise<{ hash: string; block: number }> {
  const data = encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [config.depositAddress, BigInt(micros)] });
  const hash = await rpc<string>('eth_sendTransaction', [{ from: payer, to: token, data }]);
  for (let attempt = 0; attempt < 250; attempt++) {
    const receipt = await rpc<{ blockNumber: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt) return { hash, block: Number(receipt.blockNumber) };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no receipt for ${hash} after 5 s`);
}

const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
const head = async () => Number(await rpc<string>('eth_blockNumber'));

function memoryCursor(start: number): CursorStore & { value: () => number } {
  let block = start;
  return { get: async () => block, set: async (next) => void (block = next), value: () => block };
}

/** A fresh account with an open intent for an amount no other test uses. */
async function intentFor(amountMicros: number) {
  const agent = await register();
  const intent = { id: `pi_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`, accountId: agent.account_id, amountUsd: Math.floor(amountMicros / 1e6), amountMicros, status: 'open' as const, createdAt: Date.now(), expiresAt: Date.now() + 3_600_000, depositId: null };
  expect(await insertIntent(database(env), intent)).toBe(true);
  return { intent, stub: accountStub(agent.account_id) };
}

const creditsOf = async (stub: ReturnType<typeof accountStub>) => (await stub.ledgerEntries(20)).filter((row) => row.kind === 'credit');

describe('the USDC watcher', () => {
  it('records a deposit once however often it is read, forgets it when its block is reorged away, and credits nothing', async () => {
    const { stub } = await intentFor(9_000_123);
    const cursor = memoryCursor(await head());
    const sent = await transfer(9_000_123);
    const id = `${sent.hash}:0`;

    expect(await watchPass(withChain, config, cursor)).toMatchObject({ seen: 1, credited: 0, busy: true });
    expect(await depositById(database(env), id)).toMatchObject({ status: 'pending', blockNumber: sent.block });
    // Read again (a rewound cursor, a retried pass): still one row.
    await cursor.set(sent.block - 1);
    await watchPass(withChain, config, cursor);
    expect(await database(env).select().from(deposits).where(eq(deposits.txHash, sent.hash)).all()).toHaveLength(1);

    // The block is replaced before the deposit has its confirmations; the chain moves on.
    await rpc('anvil_reorg', [1, []]);
    await mine(config.confirmations);
    const outcome = await watchPass(withChain, config, cursor);
    expect(outcome).toMatchObject({ reorged: 1, credited: 0 });
    expect(await depositById(database(env), id)).toBeUndefined();
    expect(cursor.value()).toBe(sent.block - 1);
    // The next pass reads the range again from the new chain: nothing there.
    expect(await watchPass(withChain, config, cursor)).toMatchObject({ seen: 0, credited: 0 });
    expect(await creditsOf(stub)).toEqual([]);
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
});
