import { createApp } from './app';
import { sweepExpiredAccounts } from './jobs/account-expiry';
import { consumeJobs } from './jobs/consumer';
import type { JobMessage } from './jobs/messages';
import { sweepMediaJobs } from './media/jobs';
import { sweepVideoJobs } from './media/videos/job';
import { sweepExpiredUploads } from './jobs/upload-expiry';
import { sweepHumanRecords } from './jobs/human-records';
import { sweepStorage } from './jobs/storage-sweep';

export { AccountDurableObject } from '../durable-objects/account/account';
export { WebJobDurableObject } from '../durable-objects/web-job/web-job';
export { FundingWatcherDurableObject } from '../durable-objects/funding-watcher/watcher';
export { SettlementJournalDurableObject } from '../durable-objects/settlement-journal/journal';

const app = createApp();

export default {
  fetch: app.fetch,
  queue: consumeJobs,
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(sweepExpiredAccounts(env, controller.scheduledTime));
    ctx.waitUntil(sweepMediaJobs(env, controller.scheduledTime));
    ctx.waitUntil(sweepVideoJobs(env, controller.scheduledTime));
    ctx.waitUntil(sweepExpiredUploads(env, controller.scheduledTime));
    ctx.waitUntil(sweepHumanRecords(env, controller.scheduledTime));
    ctx.waitUntil(sweepStorage(env, controller.scheduledTime));
    // A deposit that came after its intent expired is still seen, and kept for the operator.
    if (env.BASE_RPC_URL) ctx.waitUntil(env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake());
  },
} satisfies ExportedHandler<Env, JobMessage>;
