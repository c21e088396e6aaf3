import { createApp } from './app';
import type { JobMessage } from './jobs/messages';

// The account's and the web job's classes are thin: their implementations load with the object (README "Startup").
export { AccountDurableObject, WebJobDurableObject } from '../durable-objects/classes';
export { FundingWatcherDurableObject } from '../durable-objects/funding-watcher/watcher';
export { SettlementJournalDurableObject } from '../durable-objects/settlement-journal/journal';

const app = createApp();

export default {
  fetch: app.fetch,
  // The queue consumer and the sweeps are imported by their first run, not at startup (README "Startup").
  async queue(batch, env, ctx) {
    const { consumeJobs } = await import('./jobs/consumer');
    return consumeJobs(batch, env, ctx);
  },
  async scheduled(controller, env, ctx) {
    const sweeps = await import('./jobs/sweeps');
    ctx.waitUntil(sweeps.sweepExpiredAccounts(env, controller.scheduledTime));
    ctx.waitUntil(sweeps.sweepMediaJobs(env, controller.scheduledTime));
    ctx.waitUntil(sweeps.sweepVideoJobs(env, controller.scheduledTime));
    ctx.waitUntil(sweeps.sweepExpiredUploads(env, controller.scheduledTime));
    ctx.waitUntil(sweeps.sweepHumanRecords(env, controller.scheduledTime));
    ctx.waitUntil(sweeps.sweepStorage(env, controller.scheduledTime));
    // A deposit that came after its intent expired is still seen, and kept for the operator.
    if (env.BASE_RPC_URL) ctx.waitUntil(env.FUNDING_WATCHER.get(env.FUNDING_WATCHER.idFromName('usdc')).wake());
  },
} satisfies ExportedHandler<Env, JobMessage>;
