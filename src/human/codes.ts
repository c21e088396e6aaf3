import { hashesEqual, randomBase62, sha256Hex } from '../accounts/credentials';

/**
 * The short codes a person types: the claim's user code (shown by the agent) and the code mailed
 * to a claim's email. Both are 6 digits (spec), stored only as the SHA-256 of the claim id, the
 * code's purpose and the code, and compared in constant time. With 10^6 codes the attempt limits
 * (`limits.ts`) are what make guessing hopeless, not the code's length.
 */

export type CodePurpose = 'user' | 'email';

export const CLAIM_ID_PATTERN = /^clm_[A-Za-z0-9]{20}$/;

export function newClaimId(): string {
  return `clm_${randomBase62(20)}`;
}

/** Six uniformly random digits (rejection sampling: every code equally likely). */
export function newSixDigitCode(): string {
  const bound = Math.floor(0x1_0000_0000 / 1_000_000) * 1_000_000;
  for (;;) {
    const [value] = crypto.getRandomValues(new Uint32Array(1));
    if (value! < bound) return String(value! % 1_000_000).padStart(6, '0');
  }
}

/** What a person typed, as a code: spaces and dashes dropped; null unless six digits remain. */
export function normalizeCode(typed: unknown): string | null {
  if (typeof typed !== 'string') return null;
  const digits = typed.replace(/[\s-]/g, '');
  return /^\d{6}$/.test(digits) ? digits : null;
}

export function codeHash(claimId: string, purpose: CodePurpose, code: string): Promise<string> {
  return sha256Hex(`${claimId}:${purpose}:${code}`);
}

/** Whether `typed` is the code stored as `storedHash`, compared in constant time. */
export async function codeMatches(claimId: string, purpose: CodePurpose, typed: string, storedHash: string | null): Promise<boolean> {
  if (storedHash === null) return false;
  return hashesEqual(await codeHash(claimId, purpose, typed), storedHash);
}
