import { createClient, http, parseAbiItem, parseEventLogs, type Client, type Log } from 'viem';
import { getBlock, getBlockNumber, getChainId, getLogs, getTransactionReceipt } from 'viem/actions';
import { ChainMismatchError } from './chain-mismatch';
import { evmChain } from './evm-chain';
import type { UsdcConfig } from './usdc-config';

/**
 * The few JSON-RPC reads the USDC rail makes, through viem's tree-shakable actions (a bare
 * `createClient`, not `createPublicClient`, so only these land in the bundle). Callers load this
 * module with `import()`: viem's index, once evaluated, sets up secp256k1 tables, milliseconds of a
 * cold start that requests without chain work should not pay (issue #25).
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

export interface BlockHeader {
  hash: string;
  /** The block's timestamp (whole seconds on chain), in milliseconds. */
  timeMs: number;
}

/** A client for the configured endpoint that knows which chain it must be talking to (`headBlock` checks it). */
export function chainClient(config: UsdcConfig): Client {
  const chain = evmChain(config.chainId, config.rpcUrl);
  // No retries inside a call: the watcher's next alarm is the retry.
  return createClient({ chain, transport: http(config.rpcUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) });
}

/**
 * The endpoint's head block, after checking that it serves the client's chain (both asked at
 * once): `ChainMismatchError` otherwise, so neither `/agent/fund` nor the watcher ever acts on
 * another chain's blocks.
 */
export async function headBlock(client: Client): Promise<number> {
  const [chainId, head] = await Promise.all([client.chain ? getChainId(client) : undefined, getBlockNumber(client, { cacheTime: 0 })]);
  if (client.chain && chainId !== client.chain.id) throw new ChainMismatchError(client.chain.id, chainId ?? 0);
  return Number(head);
}

/** The block at `number` on the chain as the node sees it now (null past its head). */
export async function blockAt(client: Client, number: number): Promise<BlockHeader | null> {
  try {
    const block = await getBlock(client, { blockNumber: BigInt(number) });
    return { hash: block.hash, timeMs: Number(block.timestamp) * 1000 };
  } catch (err) {
    if (err instanceof Error && err.name === 'BlockNotFoundError') return null;
    throw err;
  }
}

/**
 * The chain's `finalized` block (on Base, an OP Stack chain: one whose L1 batch is finalized on
 * Ethereum), which no reorg replaces; null when the node does not serve the tag.
 */
export async function finalizedBlock(client: Client): Promise<number | null> {
  try {
    return Number((await getBlock(client, { blockTag: 'finalized' })).number);
  } catch (err) {
    // Once per isolate: the watcher asks every few seconds.
    if (!finalizedUnservedLogged) console.error('USDC: the node does not serve the finalized block; counting 256 blocks instead', err);
    finalizedUnservedLogged = true;
    return null;
  }
}
let finalizedUnservedLogged = false;

/**
 * The transfer of the token to the deposit address that transaction `txHash` made, of `value`
 * (an x402 payment's settlement), where it is now; null when its receipt shows none, or when the
 * chain has no receipt of it (not mined, or a reorg took it off).
 */
export async function transferInTransaction(client: Client, config: UsdcConfig, txHash: `0x${string}`, value: bigint): Promise<TransferLog | null> {
  let receipt;
  try {
    receipt = await getTransactionReceipt(client, { hash: txHash });
  } catch (err) {
    if (err instanceof Error && err.name === 'TransactionReceiptNotFoundError') return null;
    throw err;
  }
  return transferInReceipt(config, receipt, value);
}

/** The receipt fields a transfer is found in (viem's `TransactionReceipt` has them). */
export interface ReceiptOfTransfer {
  transactionHash: `0x${string}`;
  blockNumber: bigint;
  blockHash: `0x${string}`;
  logs: Log[];
}

/** The transfer of `value` to the deposit address in `receipt`, with its block and log index; null when it has none. */
export function transferInReceipt(config: UsdcConfig, receipt: ReceiptOfTransfer, value: bigint): TransferLog | null {
  const to = config.depositAddress.toLowerCase();
  const log = parseEventLogs({ abi: [TRANSFER], logs: receipt.logs, strict: true }).find(
    (entry) => entry.address.toLowerCase() === config.token.toLowerCase() && entry.args.to.toLowerCase() === to && entry.args.value === value,
  );
  if (!log || log.logIndex === null) return null;
  return { txHash: receipt.transactionHash, logIndex: log.logIndex, blockNumber: Number(receipt.blockNumber), blockHash: receipt.blockHash, from: log.args.from, value };
}

/**
 * The receipt of a transaction a facilitator reported settled, asked up to `attempts` times
 * `delayMs` apart (a facilitator behind another node, or one that answered before the block): a
 * missing receipt and a failed read are both asked again. Null when it could still not be read.
 */
export async function receiptWithRetries(client: Client, txHash: `0x${string}`, attempts = 5, delayMs = 1_000): Promise<ReceiptOfTransfer | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getTransactionReceipt(client, { hash: txHash });
    } catch (err) {
      if (attempt >= attempts) {
        console.error(`x402: the receipt of ${txHash} could not be read after ${attempts} attempts`, err);
        return null;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
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
