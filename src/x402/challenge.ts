import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { encodePaymentRequiredHeader } from './wire';
import type { X402Config } from './config';

/** How long a signed authorization may take to reach us and settle. */
const MAX_TIMEOUT_SECONDS = 300;

/** The one way we accept to be paid: USDC's EIP-3009 `exact` scheme, to the deposit address. */
export function paymentRequirements(config: X402Config, amountMicros: number): PaymentRequirements {
  return {
    scheme: 'exact',
    network: config.network,
    asset: config.asset,
    amount: String(amountMicros),
    payTo: config.payTo,
    maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
    extra: { name: config.eip712.name, version: config.eip712.version },
  };
}

/** The `PAYMENT-REQUIRED` header: base64 JSON x402 v2 challenge for `amountMicros` (USDC base units). */
export function paymentRequiredHeader(config: X402Config, url: string, amountMicros: number, error?: string): string {
  const required: PaymentRequired = {
    x402Version: 2,
    ...(error ? { error } : {}),
    resource: { url, description: 'Prepaid credit for this gateway account', mimeType: 'application/json' },
    accepts: [paymentRequirements(config, amountMicros)],
  };
  return encodePaymentRequiredHeader(required);
}
