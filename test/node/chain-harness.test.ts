import { toEventSelector, toFunctionSelector, toHex, type AbiEvent, type AbiFunction, type Address, type Hex, type RpcLog } from 'viem';
import { createWalletClient, http, parseSignature } from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressTopic, readUsdcArtifact, rpc, startChain, TRANSFER_TOPIC, usdcAbi, type Chain, type TransferResult } from '../upstreams/anvil';

/**
 * Self-test of the chain harness the USDC-on-Base funding tests use: anvil as Base (chain id
 * 8453) with the 6-decimal test token, transfers found with the same `eth_getLogs` query the
 * gateway's watcher makes, and reorgs that take a transfer back.
 */

let chain: Chain;

beforeAll(async () => {
  chain = await startChain();
});
afterAll(async () => {
  await chain?.stop();
});

/** Each test gets a fresh deposit address: nothing else ever sent to it. */
const depositAddress = (): Address => privateKeyToAddress(generatePrivateKey());

/** The watcher's query: Transfer logs of the token from `from` to `to`, over a block range. */
function transferLogs(from: Address, to: Address, fromBlock: bigint | 'earliest' = 'earliest', toBlock: bigint | 'latest' = 'latest'): Promise<RpcLog[]> {
  return chain.publicClient.request({
    method: 'eth_getLogs',
    params: [
      {
        address: chain.token,
        topics: [TRANSFER_TOPIC, addressTopic(from), addressTopic(to)],
        fromBlock: typeof fromBlock === 'bigint' ? toHex(fromBlock) : fromBlock,
        toBlock: typeof toBlock === 'bigint' ? toHex(toBlock) : toBlock,
      },
    ],
  });
}

const blockHash = async (blockNumber: bigint): Promise<Hex> => (await chain.publicClient.getBlock({ blockNumber })).hash;

describe('chain harness', () => {
  it('runs Base’s chain id with the 6-decimal test USDC deployed', async () => {
    expect(await rpc(chain.rpcUrl, 'eth_chainId')).toBe('0x2105');
    expect(await chain.publicClient.getChainId()).toBe(8453);
    const read = <F extends 'decimals' | 'name' | 'symbol' | 'totalSupply'>(functionName: F) =>
      chain.publicClient.readContract({ address: chain.token, abi: usdcAbi, functionName });
    expect(await read('decimals')).toBe(6);
    expect(await read('name')).toBe('USD Coin');
    expect(await read('symbol')).toBe('USDC');
    expect(await read('totalSupply')).toBe(0n);
    expect(chain.payer).not.toBe(chain.deployer);
    console.log(`anvil answered in ${chain.timings.startMs.toFixed(0)} ms, TestUSDC deployed in ${chain.timings.deployMs.toFixed(0)} ms`);
  });

  it('has the typed ABI the compiled artifact has', () => {
    const artifact = readUsdcArtifact();
    expect(artifact.compiler).toBe('solc 0.8.37');
    const selectors = (abi: readonly (AbiFunction | AbiEvent | { type: string })[]) =>
      abi
        .map((item) => (item.type === 'function' ? toFunctionSelector(item as AbiFunction) : item.type === 'event' ? toEventSelector(item as AbiEvent) : undefined))
        .filter((selector) => selector !== undefined)
        .sort();
    expect(selectors(usdcAbi)).toEqual(selectors(artifact.abi));
    expect(toEventSelector('event Transfer(address indexed from, address indexed to, uint256 value)')).toBe(TRANSFER_TOPIC);
  });

  let deposit: Address;
  let first: TransferResult;

  it('finds a 12.345678 USDC transfer with the watcher’s eth_getLogs query', async () => {
    deposit = depositAddress();
    const minted = await chain.mint(chain.payer, 100_000_000n);
    expect(await chain.balanceOf(chain.payer)).toBe(100_000_000n);

    first = await chain.transfer(chain.payer, deposit, 12_345_678n);
    // Automine: one block per transaction.
    expect(first.blockNumber).toBe(minted.blockNumber + 1n);
    expect(await chain.blockNumber()).toBe(first.blockNumber);
    expect(await chain.balanceOf(deposit)).toBe(12_345_678n);

    const logs = await transferLogs(chain.payer, deposit);
    expect(logs).toHaveLength(1);
    const [log] = logs;
    expect(log).toMatchObject({
      address: chain.token,
      topics: [TRANSFER_TOPIC, addressTopic(chain.payer), addressTopic(deposit)],
      data: toHex(12_345_678n, { size: 32 }),
      blockNumber: toHex(first.blockNumber),
      blockHash: first.blockHash,
      transactionHash: first.hash,
      logIndex: toHex(first.logIndex),
      removed: false,
    });
    // The same query limited to the transfer's block, as a watcher scanning block ranges makes it.
    expect(await transferLogs(chain.payer, deposit, first.blockNumber, first.blockNumber)).toHaveLength(1);
    // Nothing from anyone else to the deposit address.
    expect(await transferLogs(chain.deployer, deposit)).toHaveLength(0);
  });

  it('mines empty blocks on demand', async () => {
    const before = await chain.blockNumber();
    await chain.mine(3);
    expect(await chain.blockNumber()).toBe(before + 3n);
    const head = await chain.publicClient.getBlock({ blockNumber: before + 3n });
    expect(head.transactions).toHaveLength(0);
  });

  it('serves the safe and finalized tags the watcher settles by: 32 and 64 blocks below the head', async () => {
    await chain.mine(70);
    const head = await chain.blockNumber();
    const safe = await chain.publicClient.getBlock({ blockTag: 'safe' });
    const finalized = await chain.publicClient.getBlock({ blockTag: 'finalized' });
    expect(safe.number).toBe(head - 32n);
    expect(finalized.number).toBe(head - 64n);
  });

  it('drops a transfer with a reorg of depth 2: its log and its block are gone', async () => {
    const second = await chain.transfer(chain.payer, deposit, 1_000_000n);
    await chain.mine(1); // one confirmation
    const head = await chain.blockNumber();
    expect(head).toBe(second.blockNumber + 1n);
    expect(await transferLogs(chain.payer, deposit)).toHaveLength(2);
    const hashesBefore = await Promise.all([second.blockNumber - 1n, second.blockNumber, head].map(blockHash));

    await chain.reorg(2);

    // Same height; the two top blocks are new (and empty), their parent is untouched.
    expect(await chain.blockNumber()).toBe(head);
    const hashesAfter = await Promise.all([second.blockNumber - 1n, second.blockNumber, head].map(blockHash));
    expect(hashesAfter[0]).toBe(hashesBefore[0]);
    expect(hashesAfter[1]).not.toBe(hashesBefore[1]);
    expect(hashesAfter[2]).not.toBe(hashesBefore[2]);
    expect((await chain.publicClient.getBlock({ blockNumber: second.blockNumber })).transactions).toHaveLength(0);

    // The dropped transfer is gone: no log, no receipt, no transaction, not back in the pool,
    // and its effects undone. The first transfer, deeper than the reorg, stays.
    const logs = await transferLogs(chain.payer, deposit);
    expect(logs.map((log) => log.transactionHash)).toEqual([first.hash]);
    expect(await transferLogs(chain.payer, deposit, second.blockNumber, head)).toHaveLength(0);
    expect(await rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [second.hash])).toBeNull();
    expect(await rpc(chain.rpcUrl, 'eth_getTransactionByHash', [second.hash])).toBeNull();
    expect(await rpc(chain.rpcUrl, 'txpool_status')).toEqual({ pending: '0x0', queued: '0x0' });
    expect(await chain.balanceOf(deposit)).toBe(12_345_678n);
    await chain.mine(2);
    expect(await transferLogs(chain.payer, deposit)).toHaveLength(1);
  });

  it('can put a transfer into a replacement block of a reorg', async () => {
    const third = await chain.transfer(chain.payer, deposit, 2_000_000n);
    await chain.mine(2);
    const head = await chain.blockNumber();
    // Depth 3 replaces the transfer's block and the two after it; offset 2 is the new head.
    await chain.reorg(3, [[chain.transferRequest(chain.payer, deposit, 2_000_000n), 2]]);
    expect(await chain.blockNumber()).toBe(head);
    const logs = await transferLogs(chain.payer, deposit, third.blockNumber, head);
    expect(logs).toHaveLength(1);
    const [log] = logs;
    expect(log?.blockNumber).toBe(toHex(head));
    expect(log?.blockHash).toBe(await blockHash(head));
    // A JSON request is signed again with fresh gas and fees: same sender, nonce and calldata,
    // but a new transaction hash (a signed raw transaction would keep its hash).
    expect(log?.transactionHash).not.toBe(third.hash);
    expect(await chain.balanceOf(deposit)).toBe(14_345_678n);
  });

  describe('EIP-3009 (transferWithAuthorization, as USDC has it)', () => {
    const types = {
      TransferWithAuthorization: [
        { name: 'from', type: 'address' },
        { name: 'to', type: 'address' },
        { name: 'value', type: 'uint256' },
        { name: 'validAfter', type: 'uint256' },
        { name: 'validBefore', type: 'uint256' },
        { name: 'nonce', type: 'bytes32' },
      ],
    } as const;
    const owner = privateKeyToAccount(generatePrivateKey());
    const to = depositAddress();
    const relay = () => createWalletClient({ transport: http(chain.rpcUrl), account: chain.deployer, chain: chain.publicClient.chain });
    const sign = async (message: { value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }, signer = owner) =>
      signer.signTypedData({
        domain: { name: 'USD Coin', version: '2', chainId: chain.chainId, verifyingContract: chain.token },
        types,
        primaryType: 'TransferWithAuthorization',
        message: { from: owner.address, to, ...message },
      });
    const now = () => BigInt(Math.floor(Date.now() / 1000));
    const submit = async (message: { value: bigint; validAfter: bigint; validBefore: bigint; nonce: Hex }, signature: Hex) => {
      const { r, s, v } = parseSignature(signature);
      const args = [owner.address, to, message.value, message.validAfter, message.validBefore, message.nonce, Number(v), r, s] as const;
      // Simulate first, so a revert reason comes back as an error (a mined revert would not say why).
      await chain.publicClient.simulateContract({ account: chain.deployer, address: chain.token, abi: usdcAbi, functionName: 'transferWithAuthorization', args });
      const hash = await relay().writeContract({ address: chain.token, abi: usdcAbi, functionName: 'transferWithAuthorization', args, chain: null });
      return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    };

    it('has USDC’s EIP-712 domain: name "USD Coin", version "2"', async () => {
      expect(await chain.publicClient.readContract({ address: chain.token, abi: usdcAbi, functionName: 'version' })).toBe('2');
    });

    it('moves a signed authorization once, relayed by someone else; a replay, an expired one, a future one and a bad signature revert', async () => {
      await chain.mint(owner.address, 5_000_000n);
      const message = { value: 1_000_000n, validAfter: now() - 600n, validBefore: now() + 600n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
      const signature = await sign(message);
      expect(await chain.publicClient.readContract({ address: chain.token, abi: usdcAbi, functionName: 'authorizationState', args: [owner.address, message.nonce] })).toBe(false);
      const receipt = await submit(message, signature);
      expect(receipt.status).toBe('success');
      expect(await chain.balanceOf(to)).toBe(1_000_000n);
      expect(await chain.publicClient.readContract({ address: chain.token, abi: usdcAbi, functionName: 'authorizationState', args: [owner.address, message.nonce] })).toBe(true);

      await expect(submit(message, signature)).rejects.toThrow(/authorization is used or canceled/);
      const expired = { ...message, validBefore: now() - 10n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
      await expect(submit(expired, await sign(expired))).rejects.toThrow(/authorization is expired/);
      const future = { ...message, validAfter: now() + 3600n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
      await expect(submit(future, await sign(future))).rejects.toThrow(/authorization is not yet valid/);
      const other = { ...message, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
      await expect(submit(other, await sign(other, privateKeyToAccount(generatePrivateKey())))).rejects.toThrow(/invalid signature/);
      await expect(submit({ ...other, value: 2_000_000n }, await sign(other))).rejects.toThrow(/invalid signature/);
      expect(await chain.balanceOf(to)).toBe(1_000_000n);
    });
  });
});
