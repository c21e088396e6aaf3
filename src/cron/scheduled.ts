import { sweepExpiredAccounts } from '../accounts/expiry';
import { sweepMediaJobs } from '../products/render/jobs';
import { sweepResponses } from '../products/chat/formats/responses/store';
import { sweepVideoJobs } from '../products/videos/job';
import { sweepHumanRecords } from './human-records';
import { sweepStorage } from './storage-sweep';
import { sweepExpiredUploads } from './upload-expiry';

/**
 * The cron's run (every 5 minutes, docs/contributors/storage.md, "Queue and cron"): each job kind's sweep (a lost message sent
 * again, an overdue job failed and its hold freed), then retention. The handler awaits them all, so
 * the invocation lives as long as they do (a cron's own wall-time limit, not `waitUntil`'s 30 s
 * after a client goes); they run side by side and settle each on its own, so one that throws does
 * not stop the others. Imported by the cron's first run, not at startup.
 */
export async function runScheduled(env: Env, now: number): Promise<void> {
  const sweeps: [string, () => Promise<unknown>][] = [
    ['account expiry', () => sweepExpiredAccounts(env, now)],
    ['image jobs', () => sweepMediaJobs(env, now)],
    ['video jobs', () => sweepVideoJobs(env, now)],
    ['upload expiry', () => sweepExpiredUploads(env, now)],
    ['human records', () => sweepHumanRecords(env, now)],
    ['storage', () => sweepStorage(env, now)],
    ['stored responses', () => sweepResponses(env.MEDIA, now)],
  ];
  // A deposit that came after its intent expired is still seen, and kept for the operator.
  if (env.BASE_RPC_URL) sweeps.push(['usdc watcher', () => env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake()]);
  const settled = await Promise.allSettled(sweeps.map(([, sweep]) => sweep()));
  settled.forEach((outcome, i) => {
    if (outcome.status === 'rejected') console.error(`cron sweep "${sweeps[i]![0]}" failed; the next run tries again`, outcome.reason);
  });
}
