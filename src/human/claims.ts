import { accountIdOfClaimToken, sha256Hex } from '../accounts/credentials';
import { database } from '../db';
import { markClaimed as markClaimedIndex } from '../db/accounts';
import { approve, claimById, insertClaim, latestClaimOf, recordPoll, type ClaimRow } from '../db/claims';
import type { AccountSnapshot } from '../../durable-objects/account/types';
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

/** The account a claim token names, when the token is its own (checked by the account's Durable Object); null otherwise. */
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

/** Opens a claim on an unclaimed account, superseding its pending one (the old code stops working). */
export async function openClaim(env: Env, accountId: string, email: string | null, now: number): Promise<OpenedClaim> {
  const id = newClaimId();
  const userCode = newSixDigitCode();
  const claim: ClaimRow = {
    id,
    accountId,
    codeHash: await codeHash(id, 'user', userCode),
    status: 'pending',
    email,
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
  return { claim, userCode };
}

export type PollOutcome =
  | { state: 'claimed' }
  | { state: 'pending'; intervalSeconds: number }
  | { state: 'slow_down'; intervalSeconds: number }
  | { state: 'expired'; why: 'expired' | 'locked' | 'superseded' | 'none' };

/**
 * What the agent's poll answers at `now`. A poll sooner than the claim's interval after the
 * previous one is `slow_down` and adds 5 seconds to the interval (D13); every poll counts as the
 * previous one for the next.
 */
export async function pollClaim(env: Env, account: AccountSnapshot, now: number): Promise<PollOutcome> {
  if (account.claimed) return { state: 'claimed' };
  const db = database(env);
  const claim = await latestClaimOf(db, account.accountId);
  if (!claim) return { state: 'expired', why: 'none' };
  const state = claimState(claim, now);
  if (state === 'approved') {
    // Approved in D1 but the account not yet marked (a failure between the two): finish it now.
    await markAccountClaimed(env, claim.accountId, claim.approvedAt ?? now);
    return { state: 'claimed' };
  }
  if (state !== 'pending') return { state: 'expired', why: state };
  const early = claim.lastPollAt !== null && now - claim.lastPollAt < claim.intervalSeconds * 1000;
  const intervalSeconds = early ? claim.intervalSeconds + SLOW_DOWN_STEP_SECONDS : claim.intervalSeconds;
  await recordPoll(db, claim.id, now, intervalSeconds);
  return early ? { state: 'slow_down', intervalSeconds } : { state: 'pending', intervalSeconds };
}

/**
 * The human finished: approves the claim and marks the account claimed (it never expires, the
 * card caps are lifted, its keys are untouched). False when the claim was no longer pending.
 */
export async function approveClaim(env: Env, claimId: string, now: number): Promise<boolean> {
  const db = database(env);
  const claim = await claimById(db, claimId);
  if (!claim || claimState(claim, now) !== 'pending') return false;
  if (!(await approve(db, claimId, now))) return false;
  await markAccountClaimed(env, claim.accountId, now);
  return true;
}

async function markAccountClaimed(env: Env, accountId: string, at: number): Promise<void> {
  const account = await accountStub(env, accountId).markClaimed(at);
  if (!account) return;
  await markClaimedIndex(database(env), accountId, at);
}
