import type { ImageTokenPrice } from '../catalog/types';
import { roundHalfUp } from './cost';

/**
 * The service fee on token-billed image renders, in percent of the upstream-reported amount
 * (spec: "charged the upstream-reported amount plus a service fee"). Per-image prices carry the
 * gateway's margin in the catalog price instead.
 */
export const IMAGE_TOKEN_FEE_PERCENT = 5;

/** The tokens an upstream reports for one image request (OpenAI's `usage`). */
export interface ImageTokenUsage {
  textInputTokens: number;
  imageInputTokens: number;
  outputTokens: number;
}

/** 1e-12 USD per token units, as in `cost.ts`, so every product is an exact integer. */
const SCALE = 1_000_000n;
const scaled = (perMTok: number) => BigInt(Math.round(perMTok * Number(SCALE)));

/**
 * The exact charge of a token-billed render in micro-dollars: the reported tokens at the route's
 * prices, plus the fee, rounded half up once (D16).
 */
export function imageTokenCostMicros(usage: ImageTokenUsage, price: ImageTokenPrice): number {
  const upstream =
    BigInt(usage.textInputTokens) * scaled(price.textInputPerMTok) +
    BigInt(usage.imageInputTokens) * scaled(price.imageInputPerMTok) +
    BigInt(usage.outputTokens) * scaled(price.imageOutputPerMTok);
  return roundHalfUp(upstream * BigInt(100 + IMAGE_TOKEN_FEE_PERCENT), SCALE * 100n);
}

/** `micros` plus the fee, rounded half up: the hold and the fallback of a token-billed route. */
export function withImageFee(micros: number): number {
  return roundHalfUp(BigInt(micros) * BigInt(100 + IMAGE_TOKEN_FEE_PERCENT), 100n);
}
