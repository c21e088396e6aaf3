import { database } from '../db';
import { supersedePending } from '../db/claims';
import { humanResetById, recordHumanReset, type HumanResetRow } from '../db/human-resets';
import { deletePasskeysOf } from '../db/passkeys';
import { revokeSessionsOf } from '../db/sessions';
import { accountStub } from './claims';

/**
 * The operator's reset of an account's human (one who lost their passkey, or an account handed
 * over with a credential that must go): the account's Durable Object first lets go of the human
 * (from then on no passkey or session of theirs works, even one written a moment later), then the
 * passkeys are deleted, the sessions revoked and open claims ended in D1. The account stays
 * claimed (it never expires, its card caps stay lifted) and accepts a new claim with its claim
 * token. Each reset is an audit row in D1 (`human_resets`), once per idempotency key.
 */
export type ResetOutcome = { ok: true; reset: HumanResetRow } | { ok: false; reason: 'no_account' | 'key_reused' };

export async function resetHuman(env: Env, accountId: string, reason: string, idempotencyKey: string | undefined, now: number): Promise<ResetOutcome> {
  const db = database(env);
  const id = `reset:${idempotencyKey ?? crypto.randomUUID()}`;
  const prior = idempotencyKey === undefined ? undefined : await humanResetById(db, id);
  if (prior) return prior.accountId === accountId ? { ok: true, reset: prior } : { ok: false, reason: 'key_reused' };
  if (!(await accountStub(env, accountId).resetHuman())) return { ok: false, reason: 'no_account' };
  await supersedePending(db, accountId);
  const passkeysRemoved = await deletePasskeysOf(db, accountId);
  const sessionsRevoked = await revokeSessionsOf(db, accountId, now);
  const reset: HumanResetRow = { id, accountId, reason, passkeysRemoved, sessionsRevoked, createdAt: now };
  // A concurrent retry with the same key did the same reset: its row stands.
  await recordHumanReset(db, reset);
  return { ok: true, reset: (await humanResetById(db, id)) ?? reset };
}
