import { createClient, http, type Client } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { getTransaction, getTransactionCount, sendTransaction } from 'viem/actions';
import { evmChain } from '../funding/evm-chain';
import type { X402Config } from './config';

/** A transaction the relayer's key signs and pays gas for (a settlement's `transferWithAuthorization`). */
export interface RelayedTransaction {
  to: `0x${string}`;
  data: `0x${string}`;
  gas?: bigint;
}

/** The relayer's key on the configured chain: its next nonce as the node counts it, and a send with a nonce given. */
export interface RelayerWallet {
  address: `0x${string}`;
  /**
   * Transactions of the key mined (`latest`), counted with those the node holds in its pool
   * (`pending`), and mined in blocks no reorg replaces (`finalized`; null when the node does not serve the tag).
   */
  nonces(): Promise<{ mined: number; pending: number; finalized: number | null }>;
  /** Whether the node still knows transaction `hash` (mined or in its pool). */
  knows(hash: `0x${string}`): Promise<boolean>;
  send(tx: RelayedTransaction, nonce: number): Promise<`0x${string}`>;
}

/** The relayer's account and client, built once per Durable Object (secp256k1 set-up costs milliseconds). */
export function relayerWallet(config: X402Config, privateKey: `0x${string}`): RelayerWallet {
  const chain = evmChain(config.chainId, config.rpcUrl, config.network);
  const account: PrivateKeyAccount = privateKeyToAccount(privateKey);
  const client: Client = createClient({ account, chain, transport: http(config.rpcUrl, { retryCount: 0, timeout: 15_000 }) });
  return {
    address: account.address,
    // `pending`: transactions still in the pool count, so a restarted owner does not reuse their nonces.
    nonces: async () => {
      const [mined, pending, finalized] = await Promise.all([
        getTransactionCount(client, { address: account.address, blockTag: 'latest' }),
        getTransactionCount(client, { address: account.address, blockTag: 'pending' }),
        getTransactionCount(client, { address: account.address, blockTag: 'finalized' }).catch(() => null),
      ]);
      return { mined, pending, finalized };
    },
    knows: async (hash) => {
      try {
        await getTransaction(client, { hash });
        return true;
      } catch (err) {
        if (err instanceof Error && err.name === 'TransactionNotFoundError') return false;
        throw err;
      }
    },
    send: (tx, nonce) => sendTransaction(client, { account, chain, to: tx.to, data: tx.data, nonce, ...(tx.gas !== undefined ? { gas: tx.gas } : {}) }),
  };
}
