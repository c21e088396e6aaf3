import { env } from 'cloudflare:workers';
import { encodeFunctionData, parseAbi } from 'viem';
import { inject } from 'vitest';
import { deposits } from '../../src/db/schema';
import { database } from '../../src/db';
import type { UsdcConfig } from '../../src/funding/usdc-config';
import type { ReadBlock } from '../../src/funding/reorg';
import type { CursorStore, RecheckWalk } from '../../src/funding/watch';
import { eq } from 'drizzle-orm';

/**
 * The local EVM node of the global setup (anvil, chain id 8453, a 6-decimal token as USDC) as the
 * watcher tests drive it: JSON-RPC calls, transfers to the deposit address, blocks, reorgs and an
 * in-memory watcher cursor.
 */

export const { rpcUrl, token, payer, depositAddress } = inject('chain');
export const chainConfig: UsdcConfig = { rpcUrl, token: token as `0x${string}`, depositAddress: depositAddress as `0x${string}`, confirmations: 3, chainId: 8453 };
/** The test Worker's env with the chain configured (the watcher Durable Object's own env has none: its alarms do nothing). */
export const withChain = { ...env, BASE_RPC_URL: rpcUrl, USDC_DEPOSIT_ADDRESS: depositAddress, USDC_CONTRACT: token } as Env;
export const ERC20 = parseAbi(['function transfer(address to, uint256 value) returns (bool)', 'function mint(address to, uint256 value)']);

export async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(rpcUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

/** The request of the payer's transfer of `micros` to the deposit address (for `eth_sendTransaction` or `anvil_reorg`). */
export const transferRequest = (micros: number) => ({ from: payer, to: token, data: encodeFunctionData({ abi: ERC20, functionName: 'transfer', args: [chainConfig.depositAddress, BigInt(micros)] }) });

/** Where a transaction landed now (after any reorg); null when the chain has no receipt of it. */
export const receiptOf = (hash: string) => rpc<{ blockNumber: string; blockHash: string; logs: { logIndex: string }[] } | null>('eth_getTransactionReceipt', [hash]);

/** The payer sends `micros` to the deposit address; resolves once mined (anvil answers before the block is sealed). */
export async function transfer(micros: number): Promise<{ hash: string; block: number }> {
  const hash = await rpc<string>('eth_sendTransaction', [transferRequest(micros)]);
  for (let attempt = 0; attempt < 250; attempt++) {
    const receipt = await receiptOf(hash);
    if (receipt) return { hash, block: Number(receipt.blockNumber) };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no receipt for ${hash} after 5 s`);
}

/** The node's clock set to the wall clock's next second (anvil's reorg and revert wind it back). */
export const syncClock = () => rpc('anvil_setTime', [Math.ceil(Date.now() / 1000)]);
export const mine = (blocks: number) => rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
export const head = async () => Number(await rpc<string>('eth_blockNumber'));
export const blockHash = async (block: number) => (await rpc<{ hash: string }>('eth_getBlockByNumber', [`0x${block.toString(16)}`, false])).hash;
/** `anvil_reorg`: the last `depth` blocks replaced by new ones holding `txs` (each at its offset from the first new block). */
export async function reorg(depth: number, txs: [unknown, number][] = []) {
  await rpc('anvil_reorg', [depth, txs]);
  await syncClock();
}

/**
 * Lands a signed transaction again in one new block, after a mint of the token (a higher tip, so
 * the block orders the mint first): its Transfer log is then the block's second (log index 1).
 */
export async function landAfterAMint(signed: string): Promise<string> {
  const [, , minter] = await rpc<string[]>('eth_accounts');
  await rpc('evm_setAutomine', [false]);
  try {
    const mint = encodeFunctionData({ abi: ERC20, functionName: 'mint', args: [minter as `0x${string}`, 1n] });
    await rpc('eth_sendTransaction', [{ from: minter, to: token, data: mint, maxPriorityFeePerGas: '0x2540be400', maxFeePerGas: '0x174876e800' }]);
    const hash = await rpc<string>('eth_sendRawTransaction', [signed]);
    await mine(1);
    return hash;
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
}

/** A watcher cursor kept in memory, starting after block `start`. */
export function memoryCursor(start: number): CursorStore {
  let block = start;
  let read: ReadBlock[] = [];
  let walk: RecheckWalk | undefined;
  return {
    get: async () => block,
    set: async (next) => void (block = next),
    readBlocks: async () => read,
    setReadBlocks: async (blocks) => void (read = blocks),
    recheckWalk: async () => walk,
    setRecheckWalk: async (next) => void (walk = next),
  };
}

export const depositsOfTx = (hash: string) => database(env).select().from(deposits).where(eq(deposits.txHash, hash)).all();
