import { describe, expect, it } from 'vitest';
import { intentTail } from '../funding/intents';
import { challengeAmountMicros, x402Config } from './config';

const rail = { BASE_RPC_URL: 'http://127.0.0.1:8545', USDC_DEPOSIT_ADDRESS: `0x${'a'.repeat(40)}` };
const env = (vars: Record<string, string>) => vars as unknown as Env;

describe('x402 config', () => {
  it('is off without a facilitator URL or a valid relayer key, or without the USDC rail', () => {
    expect(x402Config(env(rail))).toBeUndefined();
    expect(x402Config(env({ ...rail, X402_RELAYER_PRIVATE_KEY: '0x1234' }))).toBeUndefined();
    expect(x402Config(env({ X402_FACILITATOR_URL: 'https://facilitator.example' }))).toBeUndefined();
  });

  it('prefers the facilitator, and defaults to a $1.00 minimum and USDC’s EIP-712 domain', () => {
    const config = x402Config(env({ ...rail, X402_FACILITATOR_URL: 'https://f.example/', X402_RELAYER_PRIVATE_KEY: `0x${'1'.repeat(64)}` }))!;
    expect(config.settlement).toEqual({ kind: 'facilitator', url: 'https://f.example' });
    expect(config.minTopupMicros).toBe(1_000_000);
    expect(config.eip712).toEqual({ name: 'USD Coin', version: '2' });
    expect(config.network).toBe('eip155:8453');
  });

  it('asks for the shortfall, at least the minimum, rounded up to a whole cent', () => {
    const config = x402Config(env({ ...rail, X402_RELAYER_PRIVATE_KEY: `0x${'1'.repeat(64)}`, X402_MIN_TOPUP_USD: '0.505' }))!;
    expect(config.minTopupMicros).toBe(510_000);
    expect(challengeAmountMicros(config, 1)).toBe(510_000);
    expect(challengeAmountMicros(config, 2_000_001)).toBe(2_010_000);
    expect(challengeAmountMicros(config, 3_000_000)).toBe(3_000_000);
  });

  it('never draws a USDC intent tail that is a whole number of cents (x402 amounts are)', () => {
    for (let i = 0; i < 20_000; i++) {
      const tail = intentTail();
      expect(tail % 10_000).not.toBe(0);
      expect(tail).toBeGreaterThanOrEqual(1);
      expect(tail).toBeLessThanOrEqual(999_999);
    }
  });
});
