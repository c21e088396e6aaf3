import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { HTTPFacilitatorClient } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { createWalletClient, defineChain, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { X402Config } from './config';

/** Verifies and settles on chain; the two calls of an x402 facilitator. */
interface Settler {
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
}

/** The facilitator (`X402_FACILITATOR_URL`), or x402's own EVM facilitator scheme run here with the relayer's key. */
export function settler(config: X402Config): Settler {
  if (config.settlement.kind === 'facilitator') return new HTTPFacilitatorClient({ url: config.settlement.url, timeoutMs: 60_000 });
  const chain = defineChain({
    id: config.chainId,
    name: config.network,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [config.rpcUrl] } },
  });
  const account = privateKeyToAccount(config.settlement.privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(config.rpcUrl) }).extend(publicActions);
  // viem's verifyTypedData takes a wider union than the signer type names; the call x402 makes is one of them.
  const client = { ...wallet, address: account.address } as unknown as Parameters<typeof toFacilitatorEvmSigner>[0];
  const scheme = new ExactEvmScheme(toFacilitatorEvmSigner(client, { confirmationTimeoutMs: 30_000 }));
  return { verify: (payload, requirements) => scheme.verify(payload, requirements), settle: (payload, requirements) => scheme.settle(payload, requirements) };
}
