import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  pad,
  parseAbi,
  parseEventLogs,
  toHex,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type RpcTransactionRequest,
} from 'viem';

/**
 * A local Base-like chain for the USDC funding tests: anvil (chain id 8453, automine: one block per
 * transaction) with the test token of `test/fixtures/usdc/` deployed from the first dev account.
 *
 *   let chain: Chain;
 *   beforeAll(async () => { chain = await startChain(); });
 *   afterAll(async () => { await chain?.stop(); });
 *
 * Callers must call `stop()` in `afterAll` (with `?.`, so a failed `beforeAll` does not throw
 * again). As a safety net, every chain still running when the test process exits is killed, and a
 * `startChain` that fails half way kills its anvil before rethrowing.
 */

export const BASE_CHAIN_ID = 8453;

/** keccak256("Transfer(address,address,uint256)"): topic 0 of every ERC-20 Transfer log. */
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** The token's interface, typed for viem. `chain-harness.test.ts` checks it against the compiled ABI. */
export const usdcAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address owner) view returns (uint256)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function transfer(address to, uint256 value) returns (bool)',
  'function transferFrom(address from, address to, uint256 value) returns (bool)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function mint(address to, uint256 value)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
  // EIP-3009, as USDC (FiatTokenV2) has it: what x402's "exact" scheme settles with.
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function TRANSFER_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
  'function RECEIVE_WITH_AUTHORIZATION_TYPEHASH() view returns (bytes32)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)',
  'function receiveWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
]);

/** An address as an indexed topic (left-padded to 32 bytes), as `eth_getLogs` filters take it. */
export const addressTopic = (address: Address): Hex => pad(address.toLowerCase() as Hex, { size: 32 });

export interface UsdcArtifact {
  abi: Abi;
  bytecode: Hex;
  compiler: string;
  source: string;
}

const ARTIFACT_URL = new URL('../fixtures/usdc/TestUSDC.json', import.meta.url);

export function readUsdcArtifact(): UsdcArtifact {
  const parsed: unknown = JSON.parse(readFileSync(ARTIFACT_URL, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error('TestUSDC.json: not an object');
  const { abi, bytecode, compiler, source } = parsed as Record<string, unknown>;
  if (!Array.isArray(abi) || typeof bytecode !== 'string' || !/^0x[0-9a-f]+$/i.test(bytecode) || typeof compiler !== 'string' || typeof source !== 'string') {
    throw new Error('TestUSDC.json: expected {abi, bytecode, compiler, source}');
  }
  return { abi: abi as Abi, bytecode: bytecode as Hex, compiler, source };
}

/** Where a token transfer landed. */
export interface TransferResult {
  hash: Hash;
  blockNumber: bigint;
  blockHash: Hash;
  /** The Transfer log's index in its block. */
  logIndex: number;
}

/**
 * One transaction for `anvil_reorg`'s new blocks, with the offset of the block it goes in:
 * 0 is the first block after the common ancestor (height `head - depth + 1`), `depth - 1` the new
 * head. A transaction is either a request anvil signs (`from` a dev account or an impersonated
 * one; the nonce is taken at the common ancestor) or a signed raw transaction.
 */
export type ReorgTxPair = [tx: RpcTransactionRequest | Hex, blockOffset: number];

export interface ChainOptions {
  /** Dev accounts anvil generates (default 10), each with `balanceEth` ether (default 10000). */
  accounts?: number;
  balanceEth?: number;
  /** Milliseconds to wait for anvil to listen and answer (default 30 s). */
  startTimeoutMs?: number;
  /** Seconds between blocks (`--block-time`, as Base's 2): transactions wait in the pool. Default: one block per transaction. */
  blockTimeSeconds?: number;
}

export interface Chain {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string;
  chainId: number;
  /** The TestUSDC contract. */
  token: Address;
  /** Dev account 0, which deployed the token. */
  deployer: Address;
  /** Dev account 1: ether for gas, no USDC until minted. */
  payer: Address;
  /** All dev accounts (unlocked: anvil signs for them). */
  accounts: Address[];
  /** A viem client on the chain, without caching (fresh block numbers on every call). */
  publicClient: PublicClient;
  /** How long anvil took to answer and the token to deploy, in milliseconds. */
  timings: { startMs: number; deployMs: number };
  /** Mints `amountMicros` (6 decimals) to `to` in a block of its own; resolves once mined. */
  mint: (to: Address, amountMicros: bigint | number) => Promise<TransferResult>;
  /**
   * `from` sends `amountMicros` to `to` with `transfer`, in a block of its own. `from` may be any
   * address: one that is not a dev account is impersonated and given ether for gas.
   */
  transfer: (from: Address, to: Address, amountMicros: bigint | number) => Promise<TransferResult>;
  /** The JSON request of a `transfer`, for `reorg` to put into a replacement block. */
  transferRequest: (from: Address, to: Address, amountMicros: bigint | number) => RpcTransactionRequest;
  balanceOf: (owner: Address) => Promise<bigint>;
  /** Mines `blocks` empty blocks at once (`anvil_mine`). */
  mine: (blocks: number) => Promise<void>;
  /**
   * `anvil_reorg`: drops the last `depth` blocks and mines `depth` new ones on their parent, empty
   * but for `txs`. Dropped transactions are not re-included: they are gone unless listed in `txs`.
   * The height is unchanged; every block hash from `head - depth + 1` up changes. Anvil winds its
   * clock back to the parent's time; it is set to the wall clock again afterwards (`syncClock`), so
   * later blocks carry timestamps after the intents made meanwhile, as on a real chain.
   */
  reorg: (depth: number, txs?: ReorgTxPair[]) => Promise<void>;
  blockNumber: () => Promise<bigint>;
  /**
   * Sets the node's clock to the wall clock's next whole second: the gateway matches a transfer to
   * the intent open at its block's timestamp, and anvil's clock may lag (by its start's rounding,
   * or after a reorg or `evm_revert`).
   */
  syncClock: () => Promise<void>;
  /** What anvil printed lately (for failure messages). */
  output: () => string;
  /** Kills anvil (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. Safe to call twice. */
  stop: () => Promise<void>;
}

/** Chains still running, killed when the test process exits whatever happened to the test. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/**
 * The native anvil binary of `@foundry-rs/anvil` (not `node_modules/.bin/anvil`: that is a Node
 * wrapper that would survive a SIGKILL to it and leave anvil running).
 */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const require = createRequire(import.meta.url);
  return require.resolve(`@foundry-rs/anvil-${process.platform}-${arch}/bin/anvil`);
}

const OUTPUT_LIMIT = 64 * 1024;

export async function startChain(options: ChainOptions = {}): Promise<Chain> {
  const { accounts: accountCount = 10, balanceEth = 10_000, startTimeoutMs = 30_000, blockTimeSeconds } = options;
  installExitHook();
  const started = performance.now();
  // Port 0: the OS picks a free port and anvil prints it, so two test files never race for one.
  const child = spawn(
    anvilBinary(),
    [
      ...['--host', '127.0.0.1', '--port', '0', '--chain-id', String(BASE_CHAIN_ID), '--accounts', String(accountCount), '--balance', String(balanceEth)],
      ...(blockTimeSeconds !== undefined ? ['--block-time', String(blockTimeSeconds)] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  running.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
      } catch {
        // already gone (ESRCH): `exited` resolves on its own
      }
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };

  try {
    // Read both streams to the end: a full pipe would block anvil, which logs every call.
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`anvil did not listen within ${startTimeoutMs} ms`)), startTimeoutMs);
      const onData = (chunk: Buffer) => {
        output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
        const listening = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
        if (listening?.[1]) {
          clearTimeout(timer);
          resolve(Number(listening[1]));
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`anvil exited (${signal ?? code}) before listening`));
      });
    });
    const rpcUrl = `http://127.0.0.1:${port}`;
    await waitForChainId(rpcUrl, started + startTimeoutMs);
    const startMs = performance.now() - started;

    const chain = defineChain({
      id: BASE_CHAIN_ID,
      name: 'Base (anvil)',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [rpcUrl] } },
    });
    const transport = http(rpcUrl, { retryCount: 0 });
    const publicClient = createPublicClient({ chain, transport, cacheTime: 0, pollingInterval: 20 });
    const testClient = createTestClient({ chain, transport, mode: 'anvil', cacheTime: 0 });
    const wallet = createWalletClient({ chain, transport, cacheTime: 0 });

    const accounts = await wallet.getAddresses();
    const [deployer, payer] = accounts;
    if (!deployer || !payer) throw new Error('anvil has fewer than 2 dev accounts');
    const devAccounts = new Set(accounts.map((a) => a.toLowerCase()));

    const deployStarted = performance.now();
    const { abi, bytecode } = readUsdcArtifact();
    const deployHash = await wallet.deployContract({ account: deployer, abi, bytecode });
    const deployReceipt = await publicClient.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 });
    const token = deployReceipt.contractAddress;
    if (deployReceipt.status !== 'success' || !token) throw new Error(`TestUSDC deployment failed: ${deployHash}`);
    const deployMs = performance.now() - deployStarted;

    const syncClock = async () => void (await rpc(rpcUrl, 'anvil_setTime', [Math.ceil(Date.now() / 1000)]));
    await syncClock();

    const micros = (amount: bigint | number) => {
      if (typeof amount === 'number' && !Number.isSafeInteger(amount)) throw new Error(`amountMicros must be an integer: ${amount}`);
      return BigInt(amount);
    };

    /** Waits for `hash` and returns where its Transfer log landed. */
    const landed = async (hash: Hash): Promise<TransferResult> => {
      const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
      if (receipt.status !== 'success') throw new Error(`transaction reverted: ${hash}`);
      const [log] = parseEventLogs({ abi: usdcAbi, eventName: 'Transfer', logs: receipt.logs });
      if (!log) throw new Error(`no Transfer log in ${hash}`);
      return { hash, blockNumber: receipt.blockNumber, blockHash: receipt.blockHash, logIndex: log.logIndex };
    };

    const impersonated = new Set<string>();
    const ensureSigner = async (from: Address) => {
      const key = from.toLowerCase();
      if (devAccounts.has(key) || impersonated.has(key)) return;
      await testClient.impersonateAccount({ address: from });
      await testClient.setBalance({ address: from, value: 10n ** 18n });
      impersonated.add(key);
    };

    const transferRequest = (from: Address, to: Address, amountMicros: bigint | number): RpcTransactionRequest => ({
      from,
      to: token,
      data: encodeFunctionData({ abi: usdcAbi, functionName: 'transfer', args: [to, micros(amountMicros)] }),
    });

    return {
      rpcUrl,
      chainId: BASE_CHAIN_ID,
      token,
      deployer,
      payer,
      accounts,
      publicClient,
      timings: { startMs, deployMs },
      mint: async (to, amountMicros) =>
        landed(await wallet.writeContract({ account: deployer, address: token, abi: usdcAbi, functionName: 'mint', args: [to, micros(amountMicros)] })),
      transfer: async (from, to, amountMicros) => {
        await ensureSigner(from);
        return landed(await wallet.writeContract({ account: from, address: token, abi: usdcAbi, functionName: 'transfer', args: [to, micros(amountMicros)] }));
      },
      transferRequest,
      balanceOf: (owner) => publicClient.readContract({ address: token, abi: usdcAbi, functionName: 'balanceOf', args: [owner] }),
      mine: (blocks) => testClient.mine({ blocks }),
      reorg: async (depth, txs = []) => {
        // Positional params, as anvil deserializes `ReorgOptions { depth, tx_block_pairs }`.
        await rpc(rpcUrl, 'anvil_reorg', [depth, txs.map(([tx, offset]) => [tx, offset])]);
        await syncClock();
      },
      blockNumber: () => publicClient.getBlockNumber({ cacheTime: 0 }),
      syncClock,
      output: () => output,
      stop,
    };
  } catch (err) {
    await stop();
    if (err instanceof Error) err.message += `\n--- anvil output ---\n${output.slice(-4000)}`;
    throw err;
  }
}

/** One JSON-RPC call; throws the node's error. */
export async function rpc(rpcUrl: string, method: string, params: unknown[] = []): Promise<unknown> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message} (${body.error.code})`);
  return body.result;
}

async function waitForChainId(rpcUrl: string, deadline: number): Promise<void> {
  let last: unknown;
  while (performance.now() < deadline) {
    try {
      const chainId = await rpc(rpcUrl, 'eth_chainId');
      if (chainId === toHex(BASE_CHAIN_ID)) return;
      last = new Error(`eth_chainId answered ${String(chainId)}`);
    } catch (err) {
      last = err;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`anvil did not answer eth_chainId: ${String(last)}`);
}
