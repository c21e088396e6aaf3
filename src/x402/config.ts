import { parseUsd } from '../money';
import { usdcConfig } from '../funding/usdc-config';

/** x402's default floor: a challenge never asks for less than 1 USD (`X402_MIN_TOPUP_USD`). */
const DEFAULT_MIN_TOPUP_MICROS = 1_000_000;
/** One cent in micro-dollars, which are also USDC base units (6 decimals). */
export const CENT_MICROS = 10_000;

export interface X402Config {
  /** CAIP-2 network, `eip155:<USDC_CHAIN_ID>`. */
  network: `eip155:${number}`;
  chainId: number;
  rpcUrl: string;
  asset: `0x${string}`;
  payTo: `0x${string}`;
  minTopupMicros: number;
  eip712: { name: string; version: string };
  /** How payments are settled: through a facilitator, or in process with the relayer's key. */
  settlement: { kind: 'facilitator'; url: string } | { kind: 'relayer'; privateKey: `0x${string}` };
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** x402's configuration, or undefined when it is off (no facilitator or relayer key, or the USDC rail is not set up). */
export function x402Config(env: Env): X402Config | undefined {
  const usdc = usdcConfig(env);
  if (!usdc) return undefined;
  const facilitatorUrl = env.X402_FACILITATOR_URL?.trim();
  const relayerKey = env.X402_RELAYER_PRIVATE_KEY?.trim();
  let settlement: X402Config['settlement'];
  if (facilitatorUrl) settlement = { kind: 'facilitator', url: facilitatorUrl.replace(/\/+$/, '') };
  else if (relayerKey && PRIVATE_KEY.test(relayerKey)) settlement = { kind: 'relayer', privateKey: relayerKey as `0x${string}` };
  else return undefined;
  const min = env.X402_MIN_TOPUP_USD?.trim() ? parseUsd(env.X402_MIN_TOPUP_USD) : null;
  return {
    network: `eip155:${usdc.chainId}`,
    chainId: usdc.chainId,
    rpcUrl: usdc.rpcUrl,
    asset: usdc.token,
    payTo: usdc.depositAddress,
    minTopupMicros: roundUpToCent(min !== null && min > 0 ? min : DEFAULT_MIN_TOPUP_MICROS),
    eip712: { name: env.USDC_EIP712_NAME?.trim() || 'USD Coin', version: env.USDC_EIP712_VERSION?.trim() || '2' },
    settlement,
  };
}

export const roundUpToCent = (micros: number): number => Math.ceil(micros / CENT_MICROS) * CENT_MICROS;

/** What a challenge asks for: the shortfall, at least the minimum, rounded up to a whole cent. */
export const challengeAmountMicros = (config: X402Config, shortfallMicros: number): number =>
  roundUpToCent(Math.max(config.minTopupMicros, shortfallMicros));
