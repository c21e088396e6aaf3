import { defineChain, type Chain } from 'viem';

/**
 * The configured chain as viem names one: its id, ether for gas and the one endpoint. Used by the
 * watcher's reads, the settler and the relayer's wallet, so all three talk to the same chain.
 * Loaded only with them (viem's index costs a cold start milliseconds, issue #25).
 */
export function evmChain(id: number, rpcUrl: string, name = `chain ${id}`): Chain {
  return defineChain({
    id,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
