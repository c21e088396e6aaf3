/** The RPC endpoint serves another chain than the configured one: nothing it says is believed. */
export class ChainMismatchError extends Error {
  override name = 'ChainMismatchError';
  constructor(
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`The USDC RPC endpoint serves chain id ${actual}, not the configured ${expected} (USDC_CHAIN_ID).`);
  }
}
