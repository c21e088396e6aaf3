import type { VideoModel } from '../../catalog/types';

/**
 * The charge of a finished render. A fixed-length video is charged what was held (the requested
 * seconds). One whose length follows its input (`lengthFromInput`) is charged its output's seconds
 * where the provider reports them, rounded up to the provider's billing step, at the held rate:
 * the hold priced the longest input, so the charge never passes it (D33). With no length
 * reported, the hold's bound is charged. Answers the micro-dollars and the seconds they pay for.
 */
export function outputCharge(model: VideoModel | undefined, heldMicros: number, heldSeconds: number, outputSeconds: number | undefined): { micros: number; seconds: number } {
  const step = model?.lengthFromInput?.roundUpTo;
  if (step === undefined || outputSeconds === undefined || !(outputSeconds > 0) || !(heldSeconds > 0)) return { micros: heldMicros, seconds: heldSeconds };
  const billed = Math.min(heldSeconds, Math.ceil(outputSeconds / step - 1e-9) * step);
  return { micros: Math.min(heldMicros, Math.round((heldMicros * billed) / heldSeconds)), seconds: billed };
}
