import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export type JobKind = 'crawl' | 'extract';
export type JobStatus = 'running' | 'completed' | 'failed';

/** One row: the job this Durable Object runs. */
export const job = sqliteTable('job', {
  id: text('id').primaryKey(),
  accountId: text('account_id').notNull(),
  kind: text('kind').$type<JobKind>().notNull(),
  status: text('status').$type<JobStatus>().notNull(),
  /** What was asked, as JSON (`CrawlParams` or `ExtractParams`). */
  params: text('params', { mode: 'json' }).notNull(),
  holdId: text('hold_id').notNull(),
  /** Where links in the answer point (the gateway's public base URL). */
  base: text('base').notNull(),
  createdAt: integer('created_at').notNull(),
  deadlineAt: integer('deadline_at').notNull(),
  settledAt: integer('settled_at'),
  costMicros: integer('cost_micros'),
  resultKey: text('result_key'),
  /** Where the `pages`/`records` array starts in the result object, and its length (bytes): the inline answer is that range. */
  resultOffset: integer('result_offset'),
  resultLength: integer('result_length'),
  failedUrls: integer('failed_urls').notNull().default(0),
  lastFailure: text('last_failure'),
  error: text('error'),
  /** Alarms in a row that threw; past `MAX_STEP_FAILURES` the job fails and its hold is released. */
  stepFailures: integer('step_failures').notNull().default(0),
});

/** URLs to visit: a crawl's frontier and seen set in one (a row is never queued twice), or an extract's inputs. */
export const queue = sqliteTable('queue', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  url: text('url').notNull().unique(),
  state: text('state').$type<'queued' | 'done'>().notNull(),
});

/**
 * What the job returns: crawled pages or extracted records, in order. An item whose JSON is above
 * `MAX_ROW_ITEM_BYTES` lives in R2 at `r2_key` (its `data` is then `{}`): a Durable Object row is
 * at most 2 MB in production.
 */
export const items = sqliteTable('items', {
  seq: integer('seq').primaryKey({ autoIncrement: true }),
  data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  r2Key: text('r2_key'),
  /** UTF-8 bytes of the item's JSON (null for rows written before this column). */
  bytes: integer('bytes'),
});
