import { createClient, http, parseAbiItem, type Client } from 'viem';
import { getBlock, getBlockNumber, getLogs } from 'viem/actions';
import type { UsdcConfig } from './usdc-config';

/**
 * The few JSON-RPC reads the USDC rail makes, through viem's tree-shakable actions (a bare
 * `createClient`, not `createPublicClient`, so only these land in the bundle).
 */

const TRANSFER = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const RPC_TIMEOUT_MS = 10_000;

export interface TransferLog {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  from: string;
  /** micro-USDC (the token has 6 decimals). */
  value: bigint;
}

export function chainClient(config: UsdcConfig): Client {
  // No retries inside a call: the watcher's next alarm is the retry.
  return createClient({ transport: http(config.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
}

export async function headBlock(client: Client): Promise<number> {
  return Number(await getBlockNumber(client, { cacheTime: 0 }));
}

/** The hash of the block at `number` on the chain as the node sees it now (null past its head). */
export async function blockHashAt(client: Client, number: number): Promise<string | null> {
  try {
    return (await getBlock(client, { blockNumber: BigInt(number) })).hash;
  } catch (err) {
    if (err instanceof Error && err.name === 'BlockNotFoundError') return null;
    throw err;
  }
}

/** Transfers of the token to the deposit address in blocks `from` to `to`, inclusive. */
export async function transfersTo(client: Client, config: UsdcConfig, from: number, to: number): Promise<TransferLog[]> {
  const logs = await getLogs(client, { address: config.token, event: TRANSFER, args: { to: config.depositAddress }, fromBlock: BigInt(from), toBlock: BigInt(to), strict: true });
  return logs.flatMap((log) =>
    log.transactionHash && log.blockHash && log.blockNumber !== null && log.logIndex !== null
      ? [{ txHash: log.transactionHash, logIndex: log.logIndex, blockNumber: Number(log.blockNumber), blockHash: log.blockHash, from: log.args.from, value: log.args.value }]
      : [],
  );
}
