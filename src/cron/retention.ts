import { outputRetentionMs } from '../media/outputs';

/**
 * How long each kind of stored record is kept (docs/contributors/storage.md, "Retention"). The cron sweeps
 * delete past these; R2 lifecycle rules set by the deploy do the same for objects, as a first line.
 */
const DAY_MS = 86_400_000;

/** Generations: until `expires_at` (creation plus `OUTPUT_RETENTION_DAYS`); their outputs go with them. */
export const GENERATION_RETENTION_AFTER_EXPIRY_MS = 0;

/** Ended (completed or failed) media jobs: the outputs' retention plus a day after their last change; their outputs go with them. */
export function mediaJobRetentionMs(env: Env): number {
  return outputRetentionMs(env) + DAY_MS;
}

/** Crawl and extract jobs: their `web_jobs` row, R2 result set and Durable Object, 30 days after submission (a job runs at most 10 minutes). */
export const WEB_JOB_RETENTION_MS = 30 * DAY_MS;

/** Per-IP daily counters: today's and yesterday's rows are kept (the limits read today's only). */
export const IP_DAILY_COUNTER_RETENTION_DAYS = 2;

/** The daily welcome-credit budget's rows: 30 days, for the operator's view of recent grants. */
export const WELCOME_DAY_RETENTION_DAYS = 30;

/** USDC intents, whatever their status, 30 days after their hour ended: a deposit is matched within minutes, and the deposit row keeps the intent id, account and amount. */
export const FUNDING_INTENT_RETENTION_AFTER_EXPIRY_MS = 30 * DAY_MS;

/** The `YY-MM-DD` key (as the daily counters spell it) of the UTC day `days` before `now`. */
export function dayKeyBefore(now: number, days: number): string {
  return new Date(now - days * DAY_MS).toISOString().slice(2, 10);
}
