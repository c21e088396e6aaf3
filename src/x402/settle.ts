import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { X402Config } from './config';

/** Verifies and settles on chain; the two calls of an x402 facilitator. */
interface Settler {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

type SchemeSigner = ConstructorParameters<typeof ExactEvmScheme>[0];

/** The facilitator (`X402_FACILITATOR_URL`), or x402's own EVM facilitator scheme run here with the relayer's key. */
export function settler(config: X402Config): Settler {
  if (config.settlement.kind === 'facilitator') return facilitatorClient(config.settlement.url);
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const account = privateKeyToAccount(config.settlement.privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(config.rpcUrl) }).extend(publicActions);
  // As @x402/evm's toFacilitatorEvmSigner builds it (its root module is not imported: bundle size).
  // viem's verifyTypedData takes a wider union than the signer type names; x402's call is one of them.
  const signer = {
    ...wallet,
    address: account.address,
    getAddresses: () => [account.address],
    waitForTransactionReceipt: (args: { hash: `0x${string}` }) => wallet.waitForTransactionReceipt({ ...args, timeout: 30_000 }),
  } as unknown as SchemeSigner;
  const scheme = new ExactEvmScheme(signer);
  return { verify: (payload, requirements) => scheme.verify(payload, requirements), settle: (payload, requirements) => scheme.settle(payload, requirements) };
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
  return { verify: (p, r) => call<VerifyResponse>('verify', p, r), settle: (p, r) => call<SettleResponse>('settle', p, r) };
}
