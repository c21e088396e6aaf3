// The cold-start floor with the gateway's bindings (bench/cold.mjs): the pass-through Worker, with
// the gateway's Durable Object classes declared (empty) so that Miniflare sets up the same D1, R2,
// Queues and SQLite Durable Object plumbing a fresh gateway workerd starts with. What a fresh
// gateway takes beyond this row is the gateway's own code; the plumbing is local: deployed,
// bindings are not started with an isolate.
import { DurableObject } from 'cloudflare:workers';
import passthrough from './passthrough-worker.mjs';

export class AccountDurableObject extends DurableObject {}
export class WebJobDurableObject extends DurableObject {}
export class FundingWatcherDurableObject extends DurableObject {}
export class SettlementJournalDurableObject extends DurableObject {}

export default {
  fetch: passthrough.fetch,
  async queue() {},
};
