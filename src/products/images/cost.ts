import { imageTokenCostMicros, withImageFee, type ImageTokenUsage } from '../../billing/image-cost';
import { utf8Bytes } from '../chat/estimate';
import type { ImagePlan } from '../../providers/renders';

/**
 * A reference image is held as the largest image a GPT-image model renders (6,240 tokens, a
 * high-quality 1536x1024): more than any reference is billed at, so the hold covers the charge.
 */
const HELD_TOKENS_PER_REFERENCE = 6_240;

/** GPT-image output of 1536x1024 or 1024x1536 costs 1.5 times the square image (1584 vs 1056 tokens at medium). */
function sizeFactor(plan: ImagePlan): number {
  const [width, height] = plan.size.split('x').map(Number);
  return width === height ? 1 : 1.5;
}

/** What one image is held at before the render: the published per-image price of its size and tier. */
function heldPerImageMicros(plan: ImagePlan): number {
  return Math.ceil(plan.unitMicros * (plan.route.tokens ? sizeFactor(plan) : 1));
}

/**
 * The most a plan can cost, held before the render. Per-image routes: n images at the tier's
 * price. Token-billed routes: per image, the published price of its size and tier plus the prompt
 * and every reference as input, plus the service fee.
 */
export function imageHoldMicros(plan: ImagePlan): number {
  const tokens = plan.route.tokens;
  if (!tokens) return plan.n * plan.unitMicros;
  // Micro-dollars per token = USD per million tokens.
  // The prompt at one token per UTF-8 byte: no tokenizer makes more of it (D33).
  const inputs = utf8Bytes(plan.prompt) * tokens.textInputPerMTok + plan.references.length * HELD_TOKENS_PER_REFERENCE * tokens.imageInputPerMTok;
  return withImageFee(plan.n * (heldPerImageMicros(plan) + Math.ceil(inputs)));
}

/**
 * What a finished render is charged. Per-image routes: the images returned at the tier's price.
 * Token-billed routes: the upstream-reported usage plus the service fee; an answer without usage
 * is charged the published per-image price of the images returned, plus the fee.
 */
export function imageChargeMicros(plan: ImagePlan, images: number, usage: ImageTokenUsage | undefined): number {
  const tokens = plan.route.tokens;
  if (!tokens) return images * plan.unitMicros;
  if (usage) return imageTokenCostMicros(usage, tokens);
  return withImageFee(images * heldPerImageMicros(plan));
}
