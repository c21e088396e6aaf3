import { describe, expect, it } from 'vitest';
import { BASE_CHAIN_ID, usdcConfig } from './usdc-config';

const configured = (overrides: Partial<Env> = {}) =>
  ({ BASE_RPC_URL: 'http://127.0.0.1:8545', USDC_DEPOSIT_ADDRESS: '0x000000000000000000000000000000000000dEaD', USDC_CONTRACT: '', USDC_CONFIRMATIONS: '3', ...overrides }) as Env;

describe('the USDC rail configuration', () => {
  it('expects Base mainnet (8453) unless USDC_CHAIN_ID names another chain', () => {
    expect(usdcConfig(configured())?.chainId).toBe(BASE_CHAIN_ID);
    expect(usdcConfig(configured({ USDC_CHAIN_ID: ' ' }))?.chainId).toBe(8453);
    expect(usdcConfig(configured({ USDC_CHAIN_ID: '84532' }))?.chainId).toBe(84532);
  });

  it.each(['0', '-1', '8453.5', 'base', '1e400'])('turns the rail off for USDC_CHAIN_ID %j, rather than guessing a chain', (bad) => {
    expect(usdcConfig(configured({ USDC_CHAIN_ID: bad }))).toBeUndefined();
  });
});
