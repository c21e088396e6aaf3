import { database } from '../db';
import { deleteUploads, expiredUploads } from '../db/uploads';

/** D1 binds at most 100 parameters per statement. */
const SWEEP_BATCH = 90;

/**
 * Deletes uploads past their ~48 hours (D10) and the reservations that were never used: objects
 * first, then rows, so a crash in between leaves a row that the next sweep finishes. In
 * production an R2 lifecycle rule on `uploads/` does the same for the objects (docs/operators/deploy.md).
 */
export async function sweepExpiredUploads(env: Env, now: number): Promise<number> {
  const db = database(env);
  const expired = await expiredUploads(db, now, SWEEP_BATCH);
  if (expired.length === 0) return 0;
  const keys = expired.map((row) => row.key);
  await env.MEDIA.delete(keys);
  await deleteUploads(db, keys);
  return keys.length;
}
