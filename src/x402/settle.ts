import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createClient, encodeFunctionData, http, type Abi, type TransactionReceipt } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getCode, readContract, verifyTypedData, waitForTransactionReceipt } from 'viem/actions';
import { evmChain } from '../funding/evm-chain';
import type { X402Config } from './config';
import type { RelayedTransaction } from './relayer-wallet';

/** A settlement's answer, and the receipt of its transaction when the settler waited for it here (the relayer); null through a facilitator. */
export interface Settlement {
  response: SettleResponse;
  receipt: TransactionReceipt | null;
}

/** Verifies and settles on chain; the two calls of an x402 facilitator. */
interface Settler {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<Settlement>;
}

type SchemeSigner = ConstructorParameters<typeof ExactEvmScheme>[0];

/** Sends a transaction signed by the relayer's key: through its one nonce owner (`durable-objects/relayer`). */
export type Relay = (tx: RelayedTransaction) => Promise<`0x${string}`>;

/**
 * The facilitator (`X402_FACILITATOR_URL`), or x402's own EVM facilitator scheme run here with the
 * relayer's key, whose transactions all go out through `relay` (one serialization point for its nonce).
 */
export function settler(config: X402Config, relay: Relay): Settler {
  if (config.settlement.kind === 'facilitator') return facilitatorClient(config.settlement.url);
  const chain = evmChain(config.chainId, config.rpcUrl, config.network);
  const account = privateKeyToAccount(config.settlement.privateKey);
  // A bare client and viem's tree-shakable actions, not a wallet client extended with every public
  // action: the bundle keeps only the calls @x402/evm's facilitator scheme makes. Reads and the
  // receipt are asked here; signing and sending happen in the relayer's Durable Object.
  const client = createClient({ account, chain, transport: http(config.rpcUrl) });
  // The receipts x402's scheme waited for, by hash: the settlement's tells where its transfer landed (its deposit row).
  const receipts = new Map<string, TransactionReceipt>();
  const signer: SchemeSigner = {
    getAddresses: () => [account.address],
    readContract: (args) => readContract(client, { ...args, abi: args.abi as Abi }),
    // viem's verifyTypedData takes a wider union than the signer type names; x402's call is one of them.
    verifyTypedData: (args) => verifyTypedData(client, args as Parameters<typeof verifyTypedData>[1]),
    writeContract: (args) =>
      relay({
        to: args.address,
        data: `${encodeFunctionData({ abi: args.abi as Abi, functionName: args.functionName, args: args.args })}${args.dataSuffix?.slice(2) ?? ''}`,
        ...(args.gas !== undefined ? { gas: args.gas } : {}),
      }),
    sendTransaction: (args) => relay({ to: args.to, data: args.data }),
    waitForTransactionReceipt: async (args) => {
      const receipt = await waitForTransactionReceipt(client, { ...args, timeout: 30_000 });
      receipts.set(receipt.transactionHash.toLowerCase(), receipt);
      return receipt;
    },
    getCode: (args) => getCode(client, args),
  };
  const scheme = new ExactEvmScheme(signer);
  return {
    verify: (payload, requirements) => scheme.verify(payload, requirements),
    settle: async (payload, requirements) => {
      const response = await scheme.settle(payload, requirements);
      return { response, receipt: receipts.get(response.transaction.toLowerCase()) ?? null };
    },
  };
}

/** x402's facilitator HTTP API: `POST <url>/verify` and `<url>/settle` with the payload and the requirements. */
function facilitatorClient(url: string): Settler {
  const call = async <T>(path: 'verify' | 'settle', payload: PaymentPayload, requirements: PaymentRequirements): Promise<T> => {
    const res = await fetch(`${url}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ x402Version: payload.x402Version, paymentPayload: payload, paymentRequirements: requirements }),
      signal: AbortSignal.timeout(60_000),
    });
    const body: unknown = await res.json().catch(() => null);
    if (typeof body !== 'object' || body === null) throw new Error(`the facilitator answered ${res.status}`);
    return body as T;
  };
  return {
    verify: (p, r) => call<VerifyResponse>('verify', p, r),
    settle: async (p, r) => ({ response: await call<SettleResponse>('settle', p, r), receipt: null }),
  };
}
