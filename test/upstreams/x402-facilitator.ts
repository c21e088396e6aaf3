import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http, nonceManager, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { sendJson, startUpstream, type Upstream } from './server';

/**
 * An x402 facilitator on 127.0.0.1 built from the ecosystem's own code: `@x402/core`'s
 * `x402Facilitator` with `@x402/evm`'s exact scheme, settling on the local chain with `relayerKey`.
 * It serves the facilitator HTTP API the gateway calls: `POST /verify` and `POST /settle` with
 * `{x402Version, paymentPayload, paymentRequirements}`.
 */
export async function startX402Facilitator(options: { rpcUrl: string; chainId: number; relayerKey: Hex }): Promise<Upstream> {
  const chain = defineChain({
    id: options.chainId,
    name: 'local',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  // Nonces counted in process, as a real facilitator does, so concurrent settlements do not collide.
  const account = privateKeyToAccount(options.relayerKey, { nonceManager });
  const wallet = createWalletClient({ account, chain, transport: http(options.rpcUrl) }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({ ...wallet, address: account.address } as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]);
  const facilitator = new x402Facilitator().register(`eip155:${options.chainId}`, new ExactEvmScheme(signer));
  return startUpstream(async (request, res) => {
    const body = request.body as { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
    if (request.method === 'POST' && request.path === '/verify') return sendJson(res, 200, await facilitator.verify(body.paymentPayload, body.paymentRequirements));
    if (request.method === 'POST' && request.path === '/settle') return sendJson(res, 200, await facilitator.settle(body.paymentPayload, body.paymentRequirements));
    sendJson(res, 404, { error: 'not found' });
  });
}
