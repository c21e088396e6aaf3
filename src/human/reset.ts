import { newClaimToken, sha256Hex } from '../accounts/credentials';
import { database, type Database } from '../db';
import { claimById, supersedePending, verifiedAddressOf } from '../db/claims';
import { humanResetById, recordHumanReset, type HumanResetRow } from '../db/human-resets';
import { deletePasskeysOf } from '../db/passkeys';
import { revokeSessionsOf } from '../db/sessions';
import { accountStub, LEGACY_HUMAN } from './claims';

/**
 * The operator's reset of an account's human (one who lost their passkey, or an account handed
 * over with a credential that must go): the account's Durable Object first lets go of the human
 * (from then on no passkey or session of theirs works, even one written a moment later), then the
 * passkeys are deleted, the sessions revoked and open claims ended in D1. The account stays
 * claimed (it never expires, its card caps stay lifted), and D36 says how it is claimed again:
 * only by the code mailed to the reset human's verified address on record, or, with none (or no
 * mail sender), by the one-time claim token answered here (stored hashed, it claims once, within
 * RECLAIM_TOKEN_TTL_MS). The agent's own claim token never claims it again alone. Each reset is
 * an audit row in D1 (`human_resets`), once per idempotency key.
 */
export type ResetOutcome =
  | { ok: true; reset: HumanResetRow; reclaim: Reclaim }
  | { ok: false; reason: 'no_account' | 'key_reused' };

/** How the account is claimed again: by mail to `email` (masked by the caller), or with `token` (shown once), or as the first answer said (a retry). */
export type Reclaim = { by: 'email'; email: string } | { by: 'token'; token: string; expiresAt: number } | { by: 'unchanged' };

/** How long the operator's one-time claim token works: 72 hours. */
export const RECLAIM_TOKEN_TTL_MS = 72 * 60 * 60 * 1000;

export async function resetHuman(env: Env, accountId: string, reason: string, idempotencyKey: string | undefined, canMail: boolean, now: number): Promise<ResetOutcome> {
  const db = database(env);
  const id = `reset:${idempotencyKey ?? crypto.randomUUID()}`;
  const prior = idempotencyKey === undefined ? undefined : await humanResetById(db, id);
  if (prior) return prior.accountId === accountId ? { ok: true, reset: prior, reclaim: { by: 'unchanged' } } : { ok: false, reason: 'key_reused' };
  const token = newClaimToken(accountId);
  const tokenExpiresAt = now + RECLAIM_TOKEN_TTL_MS;
  const stub = accountStub(env, accountId);
  let result: Awaited<ReturnType<typeof stub.resetHuman>> = 'changed';
  // The address is read for the holder the Durable Object then has; a claim approved in between reads again.
  for (let attempt = 0; attempt < 3 && result === 'changed'; attempt++) {
    const holder = await stub.humanHolder();
    if (!holder) return { ok: false, reason: 'no_account' };
    const email = await addressOnRecord(db, accountId, holder.humanClaimId);
    result = await stub.resetHuman({ email, canMail, tokenHash: await sha256Hex(token), tokenExpiresAt, expectedHolder: holder.humanClaimId });
  }
  if (result === null) return { ok: false, reason: 'no_account' };
  if (result === 'changed') throw new Error(`the human of account ${accountId} kept changing during its reset`);
  await supersedePending(db, accountId);
  const passkeysRemoved = await deletePasskeysOf(db, accountId);
  const sessionsRevoked = await revokeSessionsOf(db, accountId, now);
  const reset: HumanResetRow = { id, accountId, reason, passkeysRemoved, sessionsRevoked, createdAt: now };
  // A concurrent retry with the same key did the same reset: its row stands.
  await recordHumanReset(db, reset);
  const reclaim: Reclaim = result.token ? { by: 'token', token, expiresAt: tokenExpiresAt } : { by: 'email', email: result.email };
  return { ok: true, reset: (await humanResetById(db, id)) ?? reset, reclaim };
}

/**
 * The verified address of the human who holds the account: their approved claim's, once its mailed
 * code was entered. With nobody holding it (reset already) or a holder from before claims were
 * bound to passkeys, the newest approved claim's verified address (the Durable Object prefers what
 * an earlier reset recorded).
 */
async function addressOnRecord(db: Database, accountId: string, humanClaimId: string | null): Promise<string | null> {
  if (humanClaimId === null || humanClaimId === LEGACY_HUMAN) return verifiedAddressOf(db, accountId);
  const claim = await claimById(db, humanClaimId);
  return claim?.email && claim.emailVerifiedAt !== null ? claim.email : null;
}
