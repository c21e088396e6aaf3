import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';

/**
 * x402 v2's HTTP headers are base64 of UTF-8 JSON (`PAYMENT-REQUIRED`, `PAYMENT-SIGNATURE`,
 * `PAYMENT-RESPONSE`). Done here rather than with `@x402/core/http`, whose module graph brings its
 * own copy of zod (about 140 KiB of bundle); the format is the same, as the e2e test against
 * `@x402/fetch` shows.
 */
function encode(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function decode(header: string): unknown {
  const binary = atob(header.trim());
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

export const encodePaymentRequiredHeader = (value: PaymentRequired): string => encode(value);
export const encodePaymentResponseHeader = (value: SettleResponse): string => encode(value);

/** The payload a client sent, or null when the header is not base64 JSON of an object. */
export function decodePaymentSignatureHeader(header: string): PaymentPayload | null {
  try {
    const value = decode(header);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as PaymentPayload) : null;
  } catch {
    return null;
  }
}
