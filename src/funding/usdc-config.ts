/** USDC on Base mainnet (6 decimals): the default token when `USDC_CONTRACT` is not set. */
export const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
export const BASE_CHAIN_ID = 8453;
const DEFAULT_CONFIRMATIONS = 3;

export interface UsdcConfig {
  rpcUrl: string;
  token: `0x${string}`;
  depositAddress: `0x${string}`;
  confirmations: number;
  /** The chain the RPC endpoint must serve (`USDC_CHAIN_ID`, default Base mainnet): checked before every read. */
  chainId: number;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const isAddress = (value: string | undefined): value is `0x${string}` => value !== undefined && ADDRESS.test(value.trim());

/** The USDC rail's configuration, or undefined when the operator has not set it up (502 `funding_unavailable`). */
export function usdcConfig(env: Env): UsdcConfig | undefined {
  const rpcUrl = env.BASE_RPC_URL?.trim();
  const depositAddress = env.USDC_DEPOSIT_ADDRESS?.trim();
  const token = env.USDC_CONTRACT?.trim() || BASE_USDC;
  if (!rpcUrl || !isAddress(depositAddress) || !isAddress(token)) return undefined;
  const confirmations = Number(env.USDC_CONFIRMATIONS);
  const chainId = env.USDC_CHAIN_ID?.trim() ? Number(env.USDC_CHAIN_ID) : BASE_CHAIN_ID;
  // A chain id that is not a positive integer is a misconfiguration: the rail is off, not pointed at a guess.
  if (!Number.isSafeInteger(chainId) || chainId < 1) return undefined;
  return {
    rpcUrl,
    token,
    depositAddress,
    confirmations: Number.isSafeInteger(confirmations) && confirmations >= 1 ? confirmations : DEFAULT_CONFIRMATIONS,
    chainId,
  };
}
