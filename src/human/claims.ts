import { accountIdOfClaimToken, sha256Hex } from '../accounts/credentials';
import { database } from '../db';
import { markClaimed as markClaimedIndex } from '../db/accounts';
import { claimById, insertClaim, latestClaimOf, recordApproval, recordPoll, type ClaimRow } from '../db/claims';
import type { AccountSnapshot } from '../../durable-objects/account/types';
import type { OpenClaimResult } from '../../durable-objects/account/claim';
import { codeHash, newClaimId, newSixDigitCode } from './codes';
import { WRONG_CODES_PER_CLAIM } from './limits';

/**
 * The agent's side of a claim (RFC 8628 style, spec "Agent claim"): init opens a claim with a
 * 6-digit user code, poll reports what the human has done, and approval (by the verification
 * page, `src/pages/claim/`) marks the account claimed. Every function takes the time as `now`,
 * so tests age a claim without waiting.
 */

/** Spec: a code lives 900 seconds; the agent polls at most every 5 seconds, 5 more after each `slow_down` (D13). */
export const CLAIM_LIFETIME_SECONDS = 900;
export const CLAIM_INTERVAL_SECONDS = 5;
export const SLOW_DOWN_STEP_SECONDS = 5;

export type ClaimState = 'pending' | 'approved' | 'superseded' | 'expired' | 'locked';

/** Where a claim stands at `now`: expiry and the lock are read from its row, not stored as states. */
export function claimState(claim: ClaimRow, now: number): ClaimState {
  if (claim.status !== 'pending') return claim.status;
  if (claim.wrongAttempts >= WRONG_CODES_PER_CLAIM) return 'locked';
  return now >= claim.expiresAt ? 'expired' : 'pending';
}

export function accountStub(env: Env, accountId: string) {
  return env.ACCOUNT.get(env.ACCOUNT.idFromName(accountId));
}

/** The account a claim token names, when the token is its own or the operator's one-time one (checked by the account's Durable Object); null otherwise. */
export async function accountOfClaimToken(env: Env, token: string): Promise<AccountSnapshot | null> {
  const accountId = accountIdOfClaimToken(token);
  if (!accountId) return null;
  return accountStub(env, accountId).accountForClaimToken(await sha256Hex(token));
}

export interface OpenedClaim {
  claim: ClaimRow;
  /** Shown once, to the agent; stored only hashed. */
  userCode: string;
}

export type OpenClaimOutcome = { ok: true; opened: OpenedClaim } | Exclude<OpenClaimResult, { ok: true }>;

/**
 * Opens a claim with the claim token `token`, superseding the account's pending one (the old code
 * stops working). The account's Durable Object decides first: refused while a human holds the
 * account, past three inits an hour, and after an operator reset unless D36's terms are met (it
 * then names the address on record, which the claim is bound to); otherwise the new claim is the
 * only one it will approve. The D1 row follows.
 */
export async function openClaim(env: Env, accountId: string, token: string, email: string | null, now: number): Promise<OpenClaimOutcome> {
  const id = newClaimId();
  const verdict = await accountStub(env, accountId).openClaim(id, now, await sha256Hex(token), email);
  if (!verdict.ok) return verdict;
  const userCode = newSixDigitCode();
  const claim: ClaimRow = {
    id,
    accountId,
    codeHash: await codeHash(id, 'user', userCode),
    status: 'pending',
    email: verdict.email,
    intervalSeconds: CLAIM_INTERVAL_SECONDS,
    lastPollAt: null,
    wrongAttempts: 0,
    ticketHash: null,
    emailCodeHash: null,
    emailSends: 0,
    emailVerifiedAt: null,
    createdAt: now,
    expiresAt: now + CLAIM_LIFETIME_SECONDS * 1000,
    approvedAt: null,
  };
  await insertClaim(database(env), claim);
  return { ok: true, opened: { claim, userCode } };
}

export type PollOutcome =
  | { state: 'claimed' }
  | { state: 'pending'; intervalSeconds: number }
  | { state: 'slow_down'; intervalSeconds: number }
  | { state: 'expired'; why: 'expired' | 'locked' | 'superseded' | 'none' };

/**
 * What the agent's poll answers at `now`: claimed once a human holds the account (the Durable
 * Object says so). A poll sooner than the claim's interval after the previous one is `slow_down`
 * and adds 5 seconds to the interval (D13); every poll counts as the previous one for the next.
 */
export async function pollClaim(env: Env, account: AccountSnapshot, now: number): Promise<PollOutcome> {
  const holder = await accountStub(env, account.accountId).humanHolder();
  const db = database(env);
  if (holder?.humanClaimId) {
    await followApproval(env, account.accountId, holder.humanClaimId, now);
    return { state: 'claimed' };
  }
  const claim = await latestClaimOf(db, account.accountId);
  if (!claim) return { state: 'expired', why: 'none' };
  const state = claimState(claim, now);
  // Approved in D1 yet nobody holds the account: the operator reset its human since.
  if (state === 'approved') return { state: 'expired', why: 'none' };
  if (state !== 'pending') return { state: 'expired', why: state };
  const early = claim.lastPollAt !== null && now - claim.lastPollAt < claim.intervalSeconds * 1000;
  const intervalSeconds = early ? claim.intervalSeconds + SLOW_DOWN_STEP_SECONDS : claim.intervalSeconds;
  await recordPoll(db, claim.id, now, intervalSeconds);
  return early ? { state: 'slow_down', intervalSeconds } : { state: 'pending', intervalSeconds };
}

/**
 * The human finished claim `claimId`: the account's Durable Object approves it only if it is still
 * the account's current claim and nobody holds the account (one step, so a re-init cannot land
 * between a check and the approval); then D1 follows. False when it was refused.
 */
export async function approveClaim(env: Env, claimId: string, now: number): Promise<boolean> {
  const claim = await claimById(database(env), claimId);
  // Expiry and the wrong-code lock are read from the row; supersession and who holds the account, atomically by the Durable Object.
  if (!claim || claimState(claim, now) !== 'pending') return false;
  // A claim bound to an address finishes only once its mailed code was entered (after a reset, D36, the Durable Object checks the address too).
  if (claim.email !== null && claim.emailVerifiedAt === null) return false;
  const verifiedEmail = claim.email !== null && claim.emailVerifiedAt !== null ? claim.email : null;
  if (!(await accountStub(env, claim.accountId).approveClaim(claim.id, now, verifiedEmail))) return false;
  await followApproval(env, claim.accountId, claim.id, now);
  return true;
}

/** D1 follows the Durable Object's approval (idempotent; a poll repeats it after a failure between the two). */
async function followApproval(env: Env, accountId: string, claimId: string, at: number): Promise<void> {
  if (claimId === LEGACY_HUMAN) return;
  const db = database(env);
  const claim = await claimById(db, claimId);
  if (claim?.status === 'approved') return;
  await recordApproval(db, accountId, claimId, claim?.approvedAt ?? at);
  await markClaimedIndex(db, accountId, at);
}

/** The holder the account Durable Object's migration gives accounts claimed before claims were bound to passkeys. */
export const LEGACY_HUMAN = 'legacy';

/**
 * Whether a passkey registered by claim `passkeyClaimId` may sign in to its account now: only
 * while the account's Durable Object says that claim's human holds the account. (Accounts claimed
 * before: any passkey the migration tied to its approved claim.)
 */
export async function passkeyHoldsAccount(env: Env, accountId: string, passkeyClaimId: string | null): Promise<boolean> {
  if (passkeyClaimId === null) return false;
  const holder = await accountStub(env, accountId).humanHolder();
  if (!holder?.claimed || !holder.humanClaimId) return false;
  return holder.humanClaimId === passkeyClaimId || holder.humanClaimId === LEGACY_HUMAN;
}
