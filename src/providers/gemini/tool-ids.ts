/**
 * Gemini gives function calls no id, and Gemini 2.5/3 attach a `thoughtSignature` that must come
 * back on the same functionCall part in the next request (Gemini 3 answers 400 without it). The
 * gateway keeps no state between requests, so the signature rides inside the tool call id the
 * client echoes back: `call_<8 random>` or `call_<8 random>_ts_<signature as base64url>`.
 */

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const SIGNED_ID = /^call_[A-Za-z0-9]{8}_ts_([A-Za-z0-9_-]+)$/;

/**
 * Google's documented placeholder for a function call Gemini did not produce (history from another
 * model, or a client-made call): it lets Gemini 3 skip signature validation for that step.
 */
export const FOREIGN_CALL_SIGNATURE = 'skip_thought_signature_validator';

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      // 248 = 4 * 62: rejecting the top bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A fresh tool call id carrying `signature` (Google's standard base64) when there is one. */
export function toolCallId(signature?: string): string {
  const id = `call_${randomBase62(8)}`;
  if (!signature) return id;
  // The same bytes in the URL alphabet, so the id stays a plain token; Google accepts either.
  const url = signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  return `${id}_ts_${url}`;
}

/** The thought signature a gateway-made id carries, back in standard padded base64; else undefined. */
export function signatureOf(id: string): string | undefined {
  const match = SIGNED_ID.exec(id);
  if (!match?.[1]) return undefined;
  const standard = match[1].replace(/-/g, '+').replace(/_/g, '/');
  return standard + '='.repeat((4 - (standard.length % 4)) % 4);
}
