import { sweepExpiredAccounts } from '../jobs/account-expiry';
import { sweepMediaJobs } from '../jobs/render-jobs';
import { sweepVideoJobs } from '../jobs/video-jobs';
import { sweepHumanRecords } from './human-records';
import { sweepStorage } from './storage-sweep';
import { sweepExpiredUploads } from './upload-expiry';

/**
 * The cron's run (every 5 minutes, README "Queue"): each job kind's sweep (a lost message sent
 * again, an overdue job failed and its hold freed), then retention. Each sweep runs on its own, so
 * one that throws does not stop the others. Imported by the cron's first run, not at startup.
 */
export function runScheduled(env: Env, now: number, ctx: ExecutionContext): void {
  ctx.waitUntil(sweepExpiredAccounts(env, now));
  ctx.waitUntil(sweepMediaJobs(env, now));
  ctx.waitUntil(sweepVideoJobs(env, now));
  ctx.waitUntil(sweepExpiredUploads(env, now));
  ctx.waitUntil(sweepHumanRecords(env, now));
  ctx.waitUntil(sweepStorage(env, now));
  // A deposit that came after its intent expired is still seen, and kept for the operator.
  if (env.BASE_RPC_URL) ctx.waitUntil(env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake());
}
