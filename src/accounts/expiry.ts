import { database } from '../db';
import { deleteAccountRecords, expiredAccountIds, updateAccountIndex } from '../db/accounts';
import { deleteClaimsOf } from '../db/claims';
import { deleteFundingOf } from '../db/funding';
import { deleteGenerationsOf } from '../db/generations';
import { deleteMediaJobsOf } from '../db/media-jobs';
import { deleteUploadsOf } from '../db/uploads';
import { deleteWebJobsOf, webJobIdsOf } from '../db/web-jobs';
import { deleteAccountObjects } from '../media/keys';
import type { QueueMessage } from '../queue/messages';

const SWEEP_BATCH = 100;

/** Cron: queues every unfunded, unclaimed account past `expires_unless_funded_at` for deletion. */
export async function sweepExpiredAccounts(env: Env, now: number): Promise<number> {
  const ids = await expiredAccountIds(database(env), now, SWEEP_BATCH);
  if (ids.length > 0) {
    await env.JOBS.sendBatch(ids.map((accountId) => ({ body: { kind: 'account.expire', accountId, now } satisfies QueueMessage })));
  }
  return ids.length;
}

/**
 * Deletes one expired account and all its data. The account's Durable Object decides (it may
 * have been funded since D1 was read); a repeated message finds nothing left and changes nothing.
 */
export async function expireAccount(env: Env, message: Extract<QueueMessage, { kind: 'account.expire' }>): Promise<void> {
  const db = database(env);
  const outcome = await env.ACCOUNT.get(env.ACCOUNT.idFromName(message.accountId)).deleteIfExpired(message.now);
  if (!outcome.deleted) {
    await updateAccountIndex(db, message.accountId, outcome);
    return;
  }
  for (const jobId of await webJobIdsOf(db, message.accountId)) await env.WEB_JOB.get(env.WEB_JOB.idFromName(jobId)).purge();
  await deleteWebJobsOf(db, message.accountId);
  await deleteGenerationsOf(db, message.accountId);
  await deleteMediaJobsOf(db, message.accountId);
  await deleteUploadsOf(db, message.accountId);
  await deleteFundingOf(db, message.accountId);
  // Only unclaimed accounts expire: they have claims that never finished, but no passkeys or sessions.
  await deleteClaimsOf(db, message.accountId);
  await deleteAccountObjects(env.MEDIA, message.accountId);
  await deleteAccountRecords(db, message.accountId);
}
