import { hashesEqual, randomBase62, sha256Hex } from '../accounts/credentials';
import { database } from '../db';
import { markEmailVerified, nthNewestClaimMail, reserveClaimMail, setEmailCode, setTicket, type ClaimRow } from '../db/claims';
import { codeHash, codeMatches, newSixDigitCode, normalizeCode, type CodePurpose } from './codes';
import { emailSender } from './email';
import { takeAttempt, WRONG_CODES_PER_CLAIM, WRONG_CODES_PER_IP_PER_HOUR } from './limits';

/**
 * The human's side of a claim, before the passkey: the user code, then (for a claim bound to an
 * email) the code mailed there. Entering the right user code gives the browser a ticket (a
 * random cookie, stored hashed on the claim) that the later steps require, so they belong to the
 * person who knew the code. Wrong codes of either kind count against the claim and the IP (D4).
 */

/** How many times a claim's email code may be sent (the first, and two resends). */
export const EMAIL_SENDS_PER_CLAIM = 3;

export type CodeResult =
  | { ok: true }
  | { ok: false; reason: 'malformed' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number }
  | { ok: false; reason: 'ip_limited'; retryAfterSeconds: number }
  | { ok: false; reason: 'claim_locked'; retryAfterSeconds: number };

/** A locked claim never opens again; `Retry-After` says when it would have ended (the agent must init again). */
export function lockedFor(claim: ClaimRow, now: number): number {
  return Math.max(1, Math.ceil((claim.expiresAt - now) / 1000));
}

/**
 * Checks a typed code against the claim's stored one, under the attempt limits: the attempt is
 * taken first and given back only when the code was right.
 */
async function checkCode(env: Env, claim: ClaimRow, purpose: CodePurpose, typed: unknown, ip: string, now: number): Promise<CodeResult> {
  const code = normalizeCode(typed);
  if (code === null) return { ok: false, reason: 'malformed' };
  const db = database(env);
  const attempt = await takeAttempt(db, claim.id, ip, now);
  if (!attempt.ok) return attempt.reason === 'ip_limited' ? attempt : { ok: false, reason: 'claim_locked', retryAfterSeconds: lockedFor(claim, now) };
  const stored = purpose === 'user' ? claim.codeHash : claim.emailCodeHash;
  if (await codeMatches(claim.id, purpose, code, stored)) {
    await attempt.refund();
    return { ok: true };
  }
  // The wrong code that used up an allowance is already refused as the next attempt would be.
  if (attempt.claimUsed >= WRONG_CODES_PER_CLAIM) return { ok: false, reason: 'claim_locked', retryAfterSeconds: lockedFor(claim, now) };
  if (attempt.ipUsed >= WRONG_CODES_PER_IP_PER_HOUR) return { ok: false, reason: 'ip_limited', retryAfterSeconds: attempt.ipRetryAfterSeconds };
  return { ok: false, reason: 'wrong', attemptsLeft: WRONG_CODES_PER_CLAIM - attempt.claimUsed };
}

/** The user code: when right, a new ticket for this browser (returned once, stored hashed). */
export async function enterUserCode(env: Env, claim: ClaimRow, typed: unknown, ip: string, now: number): Promise<CodeResult & { ticket?: string }> {
  const result = await checkCode(env, claim, 'user', typed, ip, now);
  if (!result.ok) return result;
  const ticket = randomBase62(32);
  await setTicket(database(env), claim.id, await sha256Hex(ticket));
  return { ok: true, ticket };
}

/** Whether `ticket` (the browser's cookie) is the one the claim gave out. */
export async function holdsTicket(claim: ClaimRow, ticket: string | undefined): Promise<boolean> {
  if (!ticket || !claim.ticketHash || !/^[A-Za-z0-9]{32}$/.test(ticket)) return false;
  return hashesEqual(await sha256Hex(ticket), claim.ticketHash);
}

/** Whether the claim still waits for its emailed code. */
export function needsEmailCode(claim: ClaimRow): boolean {
  return claim.email !== null && claim.emailVerifiedAt === null;
}

/** Claim mails one address receives in any hour, across claims and accounts (issue 20: no mail bombing through claims). */
export const CLAIM_MAILS_PER_ADDRESS_PER_HOUR = 3;
const HOUR_MS = 3_600_000;

export type SendOutcome =
  | { sent: true }
  | { sent: false; reason: 'no_sender' | 'claim_limit' }
  | { sent: false; reason: 'address_limit'; retryAfterSeconds: number };

/**
 * Mails a new one-time code to the claim's address (the previous one stops working): at most three
 * per claim, and three an hour per address whatever claim or account asks.
 */
export async function sendEmailCode(env: Env, claim: ClaimRow, publicBase: string, now: number): Promise<SendOutcome> {
  const sender = emailSender(env, publicBase);
  if (!claim.email || !sender) return { sent: false, reason: 'no_sender' };
  if (claim.emailSends >= EMAIL_SENDS_PER_CLAIM) return { sent: false, reason: 'claim_limit' };
  const db = database(env);
  const addressHash = await sha256Hex(claim.email.toLowerCase());
  if (!(await reserveClaimMail(db, addressHash, now, CLAIM_MAILS_PER_ADDRESS_PER_HOUR, HOUR_MS))) {
    const oldest = await nthNewestClaimMail(db, addressHash, now - HOUR_MS, CLAIM_MAILS_PER_ADDRESS_PER_HOUR);
    return { sent: false, reason: 'address_limit', retryAfterSeconds: Math.max(1, Math.ceil(((oldest ?? now) + HOUR_MS - now) / 1000)) };
  }
  const code = newSixDigitCode();
  if (!(await setEmailCode(db, claim.id, await codeHash(claim.id, 'email', code), EMAIL_SENDS_PER_CLAIM))) return { sent: false, reason: 'claim_limit' };
  await sender.send({
    to: claim.email,
    subject: `Your code to claim account ${claim.accountId.slice(0, 8)}: ${code}`,
    text: [
      `Someone is claiming AI Gateway account ${claim.accountId.slice(0, 8)} at ${publicBase}/claim/${claim.id}.`,
      '',
      `If it is you, enter this code on that page: ${code}`,
      '',
      'If it is not you, ignore this message: without the code nobody can finish the claim.',
    ].join('\n'),
  });
  return { sent: true };
}

/**
 * The emailed code, entered by the browser holding `ticket`: when right, that browser (and only
 * it: a new ticket clears the verification) may go on to the passkey.
 */
export async function enterEmailCode(env: Env, claim: ClaimRow, ticket: string, typed: unknown, ip: string, now: number): Promise<CodeResult> {
  const result = await checkCode(env, claim, 'email', typed, ip, now);
  if (result.ok) await markEmailVerified(database(env), claim.id, await sha256Hex(ticket), now);
  return result;
}

/** `someone@example.com` as `so•••@example.com`: enough for the person to recognise their address. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}•••${email.slice(at)}`;
}
