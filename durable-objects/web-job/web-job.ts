import { releaseJobHold, settleJobHold } from '../../src/accounts/billed';
import { SettlementRefused } from '../../src/accounts/settlement';
import { DurableObject } from 'cloudflare:workers';
import type { RequestRecord } from '../account/requests';
import { count, eq, isNotNull, sql } from 'drizzle-orm';
import { drizzle, type DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { GatewayError } from '../../src/errors';
import { accountPrefix } from '../../src/media/keys';
import { toUsdNumber } from '../../src/money';
import { CRAWL_PAGE_MICROS, EXTRACT_RECORD_MICROS } from '../../src/products/web/pricing';
import { deleteItemObjects, storeItem, type StoredItem } from './items';
import migrations from './migrations/migrations.js';
import { writeResultSet } from './result-set';
import * as schema from './schema';
import { items, job, queue } from './schema';
import type { CrawlParams, ExtractParams, JobStart, JobView } from './types';

/** Pages fetched at once: polite to the site, and bounded work per alarm. */
const CONCURRENCY = 4;
const PAGE_TIMEOUT_MS = 15_000;
/** A job that is still running at its deadline settles with what it has: it can never hang. */
export const JOB_DEADLINE_MS = 10 * 60 * 1000;
/** Inline `pages`/`records` are returned this long after settlement; `result_url` always. */
const INLINE_FOR_MS = 60 * 60 * 1000;
/** The frontier stops growing here, so a site that links forever cannot fill storage. */
const FRONTIER_PER_PAGE = 20;
/** Steps in a row that may throw before the job fails (free); each retry waits twice as long, from 1 s. */
const MAX_STEP_FAILURES = 3;
const STEP_RETRY_MS = 1_000;

type JobRow = typeof job.$inferSelect;

/**
 * One crawl or extract job: its frontier and seen set, what it found, and its money. Alarms drive
 * it a batch at a time, so a poll is answered between batches; the deadline, the per-page timeouts
 * and the hard `limit` mean it always ends, and it settles once (idempotent) with the hold released.
 */
export class WebJobDurableObject extends DurableObject<Env> {
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#db = drizzle(ctx.storage, { schema });
    void ctx.blockConcurrencyWhile(() => migrate(this.#db, migrations));
  }

  async start(input: JobStart): Promise<void> {
    const now = Date.now();
    const urls = input.params.kind === 'crawl' ? [input.params.url] : input.params.urls;
    this.#db.transaction((tx) => {
      tx.insert(job)
        .values({ id: input.id, accountId: input.accountId, kind: input.params.kind, status: 'running', params: { ...input.params, guard: input.guard }, holdId: input.holdId, base: input.base, createdAt: now, deadlineAt: now + (input.deadlineMs ?? JOB_DEADLINE_MS) })
        .run();
      for (const url of urls) tx.insert(queue).values({ url, state: 'queued' }).onConflictDoNothing().run();
    });
    await this.ctx.storage.setAlarm(now);
  }

  /**
   * The job as its owner sees it; null for anyone else (the route answers 404). The inline
   * `pages`/`records` of a freshly settled job are not in this answer (it could pass the 32 MiB an
   * RPC carries): `inline` names their byte range in the R2 result set, which the route streams.
   */
  async view(accountId: string): Promise<JobView | null> {
    const row = this.#job();
    if (!row || row.accountId !== accountId) return null;
    const found = this.#itemCount();
    const unit = row.kind === 'crawl' ? CRAWL_PAGE_MICROS : EXTRACT_RECORD_MICROS;
    const fresh = row.settledAt !== null && Date.now() - row.settledAt < INLINE_FOR_MS && row.status === 'completed';
    const inline = fresh && row.resultKey && row.resultOffset !== null && row.resultLength !== null ? { key: row.resultKey, offset: row.resultOffset, length: row.resultLength } : undefined;
    const params = row.params as CrawlParams | ExtractParams;
    return {
      id: row.id,
      status: row.status,
      cost: toUsdNumber(row.costMicros ?? (row.status === 'running' ? found * unit : 0)),
      result_url: row.resultKey ? `${row.base}/files/${row.resultKey}` : null,
      ...(row.error ? { error: row.error } : {}),
      ...(row.kind === 'crawl' ? { page_count: found } : { scraper: (params as ExtractParams).scraper, record_count: found }),
      failed_urls: row.failedUrls,
      created_at: new Date(row.createdAt).toISOString(),
      ...(row.settledAt ? { completed_at: new Date(row.settledAt).toISOString() } : {}),
      ...(inline ? { inline } : {}),
    };
  }

  /** Deletes everything (the account is being deleted). */
  async purge(): Promise<void> {
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  /**
   * One step: a batch of URLs, or the settlement. A step that throws never leaves the job running
   * with no alarm: it is tried again a few times, then the job fails and its hold is released.
   */
  override async alarm(): Promise<void> {
    const row = this.#job();
    if (!row || row.status !== 'running') return;
    try {
      await this.#step(row);
      if (row.stepFailures > 0) this.#db.update(job).set({ stepFailures: 0 }).run();
    } catch (err) {
      await this.#stepFailed(row, err);
    }
  }

  async #step(row: JobRow): Promise<void> {
    const params = row.params as (CrawlParams | ExtractParams) & { guard: JobStart['guard'] };
    const remaining = params.limit - this.#itemCount();
    const batch = this.#db
      .select()
      .from(queue)
      .where(eq(queue.state, 'queued'))
      .orderBy(queue.seq)
      .limit(params.kind === 'crawl' ? Math.min(CONCURRENCY, remaining) : CONCURRENCY)
      .all();
    if (remaining <= 0 || batch.length === 0 || Date.now() >= row.deadlineAt) return this.#finish(row);

    this.#db.update(queue).set({ state: 'done' }).where(sql`${queue.seq} in ${batch.map((b) => b.seq)}`).run();
    const results = await Promise.all(batch.map((entry) => this.#visit(entry.url, params)));

    let found = params.limit - remaining;
    let queued = this.#db.select({ n: count() }).from(queue).get()?.n ?? 0;
    for (const result of results) {
      if ('failure' in result) {
        this.#recordFailure(result.failure);
        continue;
      }
      // One URL's items and links are written together, or not at all: a page that cannot be
      // stored fails that page (free), never the batch or the job.
      try {
        const kept = result.items.slice(0, Math.max(0, params.limit - found));
        const stored: StoredItem[] = [];
        for (const [i, item] of kept.entries()) stored.push(await storeItem(this.env.MEDIA, row.accountId, row.id, found + i, item));
        const added = this.#db.transaction((tx) => {
          for (const item of stored) tx.insert(items).values(item).run();
          let linked = 0;
          for (const link of result.links) {
            if (queued + linked >= params.limit * FRONTIER_PER_PAGE) break;
            if (tx.insert(queue).values({ url: link, state: 'queued' }).onConflictDoNothing().returning({ seq: queue.seq }).get()) linked++;
          }
          return linked;
        });
        found += stored.length;
        queued += added;
      } catch (err) {
        this.#recordFailure(`${result.url}: the result could not be stored (${String(err)})`);
      }
    }
    await this.ctx.storage.setAlarm(Date.now());
  }

  #recordFailure(failure: string): void {
    this.#db.update(job).set({ failedUrls: sql`${job.failedUrls} + 1`, lastFailure: failure }).run();
  }

  /** A step threw: retry it after a pause, or after `MAX_STEP_FAILURES` fail the job for free. */
  async #stepFailed(row: JobRow, err: unknown): Promise<void> {
    const failures = row.stepFailures + 1;
    console.error(JSON.stringify({ webJob: row.id, step: 'failed', failures, error: String(err) }));
    this.#db.update(job).set({ stepFailures: failures }).run();
    if (failures < MAX_STEP_FAILURES) {
      await this.ctx.storage.setAlarm(Date.now() + STEP_RETRY_MS * 2 ** (failures - 1));
      return;
    }
    // The release is idempotent (its ledger key); if it throws, the platform retries this alarm.
    await releaseJobHold(this.env, row.accountId, row.holdId, webJobRecord(row, 0, Date.now()));
    this.#db
      .update(job)
      .set({ status: 'failed', settledAt: Date.now(), costMicros: 0, error: 'The job stopped on an internal error; nothing was charged.' })
      .run();
  }

  /** Fetches one URL through the guard, robots.txt and the standard rail; never throws. */
  async #visit(url: string, params: (CrawlParams | ExtractParams) & { guard: JobStart['guard'] }): Promise<{ url: string; items: Record<string, unknown>[]; links: string[] } | { failure: string }> {
    try {
      const { admitUrl, convertPage, findScraper, loadPage, parseHTML, sameSiteLinks, siteOf } = await import('./page-tools');
      const guard = { allowHosts: params.guard.allowHosts, ownHosts: params.guard.ownHosts };
      await admitUrl(url, this.env, guard);
      const page = await loadPage(url, false, { env: this.env, guard, timeoutMs: PAGE_TIMEOUT_MS, stealthAffordable: false });
      if (params.kind === 'extract') {
        const scraper = findScraper(params.scraper);
        if (!scraper) return { failure: `unknown scraper ${params.scraper}` };
        const { document } = parseHTML(page.html);
        return { url, items: scraper.extract({ html: page.html, url: page.finalUrl, document }), links: [] };
      }
      const site = siteOf(new URL(params.url));
      if (siteOf(new URL(page.finalUrl)) !== site) return { failure: `${url} redirected off the site to ${page.finalUrl}` };
      const markdown = convertPage(page.html, page.finalUrl, 'markdown');
      const links = sameSiteLinks(page.html, page.finalUrl, site);
      if (!markdown) return { url, items: [], links };
      const content = params.format === 'markdown' ? undefined : convertPage(page.html, page.finalUrl, params.format)?.content;
      const item = { url: page.finalUrl, title: markdown.title, markdown: markdown.content, status: page.status, ...(content === undefined ? {} : { [params.format]: content }) };
      return { url, items: [item], links };
    } catch (err) {
      return { failure: err instanceof GatewayError ? `${url}: ${err.message}` : `${url}: ${String(err)}` };
    }
  }

  /** Settles once: the result set to R2 and a charge for what was returned, or a free failure. */
  async #finish(row: JobRow): Promise<void> {
    const found = this.#itemCount();
    const params = row.params as CrawlParams | ExtractParams;
    const now = Date.now();
    if (found === 0) {
      await releaseJobHold(this.env, row.accountId, row.holdId, webJobRecord(row, 0, now));
      const empty = params.kind === 'extract' && row.failedUrls < params.urls.length;
      this.#db
        .update(job)
        .set({
          status: empty ? 'completed' : 'failed',
          settledAt: now,
          costMicros: 0,
          error: empty ? null : (row.lastFailure ?? (now >= row.deadlineAt ? 'The job reached its deadline before any page was fetched.' : 'Nothing could be fetched.')),
        })
        .run();
      return;
    }
    // The job id is random, so the key (and its link) cannot be guessed; a retried finish rewrites the same object.
    const key = `${accountPrefix('results', row.accountId)}${row.id}.json`;
    const head = params.kind === 'crawl' ? { id: row.id, url: params.url } : { id: row.id, scraper: params.scraper };
    const range = await writeResultSet(this.ctx.storage.sql, this.env.MEDIA, key, head, params.kind === 'crawl' ? 'pages' : 'records');
    const cost = found * (params.kind === 'crawl' ? CRAWL_PAGE_MICROS : EXTRACT_RECORD_MICROS);
    // A hold the account no longer has (an operator released it) is not charged; anything else is retried by the alarm.
    const settled = await settleJobHold(this.env, row.accountId, row.holdId, cost, webJobRecord(row, found, now)).catch((err: unknown) => {
      if (err instanceof SettlementRefused) return null;
      throw err;
    });
    this.#db
      .update(job)
      .set({ status: 'completed', settledAt: now, costMicros: settled ? settled.costMicros : cost, resultKey: key, resultOffset: range.offset, resultLength: range.length })
      .run();
    // The large items are in the result set now; a failure here leaves them to the results sweep.
    const large = this.#db.select({ key: items.r2Key }).from(items).where(isNotNull(items.r2Key)).all();
    await deleteItemObjects(this.env.MEDIA, large.map((item) => item.key ?? '')).catch((err: unknown) => console.error(JSON.stringify({ webJob: row.id, step: 'delete-items', error: String(err) })));
  }

  #job(): JobRow | undefined {
    return this.#db.select().from(job).get();
  }

  #itemCount(): number {
    return this.#db.select({ n: count() }).from(items).get()?.n ?? 0;
  }
}

/** D26: the record of the request that started a crawl or extract job (its request id is the hold's); units: pages or records. */
function webJobRecord(row: JobRow, found: number, now: number): RequestRecord {
  const kind = (row.params as CrawlParams | ExtractParams).kind;
  return {
    path: kind === 'crawl' ? '/v1/crawl' : '/v1/extract',
    model: null,
    provider: null,
    startedAt: row.createdAt,
    durationMs: Math.max(0, now - row.createdAt),
    streamed: false,
    usage: kind === 'crawl' ? { pages: found } : { records: found },
  };
}
