import { createApp } from './app';

// The account's, the web job's and route health's classes are thin: their implementations load with the object (docs/contributors/architecture.md, "Startup").
export { AccountDurableObject, RouteHealthDurableObject, WebJobDurableObject } from '../durable-objects/classes';
export { FundingWatcherDurableObject } from '../durable-objects/funding-watcher/watcher';
export { SettlementJournalDurableObject } from '../durable-objects/settlement-journal/journal';
export { RelayerDurableObject } from '../durable-objects/relayer/relayer';

const app = createApp();

export default {
  fetch: app.fetch,
  // The queue consumer and the cron are imported by their first run, not at startup (docs/contributors/architecture.md, "Startup").
  async queue(batch, env, ctx) {
    const { consumeQueue } = await import('./queue/consumer');
    return consumeQueue(batch, env, ctx);
  },
  async scheduled(controller, env) {
    const { runScheduled } = await import('./cron/scheduled');
    await runScheduled(env, controller.scheduledTime);
  },
  // A delivered body is checked by the consumer (`isQueueMessage`), not trusted to be a `QueueMessage`.
} satisfies ExportedHandler<Env, unknown>;
