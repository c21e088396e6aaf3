import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { MAX_ROW_ITEM_BYTES } from '../../durable-objects/web-job/items';
import type { CrawlParams, ExtractParams, JobView } from '../../durable-objects/web-job/types';
import { sha256Hex } from '../../src/accounts/credentials';
import { LARGE_PAGE_SECTIONS } from '../upstreams/website';
import { accountStub, adminCredit, bearer, call, register } from './helpers';

/** Production refuses a Durable Object row above 2 MB; local workerd stores 3 MB without a word. */
const PRODUCTION_ROW_LIMIT = 2 * 1024 * 1024;

type JobStub = ReturnType<typeof env.WEB_JOB.get>;

/** A funded account, a hold for `limit` units, and a job of `params` whose Durable Object has `before` run in it first. */
async function startJob(params: CrawlParams | ExtractParams, before?: (sql: SqlStorage) => void, deadlineMs?: number) {
  const account = await register();
  await adminCredit(account.account_id, '1');
  const stub = accountStub(account.account_id);
  const unit = params.kind === 'crawl' ? 5_000 : 10_000;
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(account.api_key), minMicros: params.limit * unit, maxMicros: params.limit * unit, purpose: params.kind });
  if (!hold.ok) throw new Error(hold.reason);
  const id = `${params.kind}_test${crypto.randomUUID().replaceAll('-', '')}`;
  const job = env.WEB_JOB.get(env.WEB_JOB.idFromName(id));
  if (before) await runInDurableObject(job, (_instance, state) => before(state.storage.sql));
  await job.start({ id, accountId: account.account_id, holdId: hold.holdId, base: 'https://gateway.test', params, guard: { allowHosts: ['127.0.0.1'], ownHosts: [] }, ...(deadlineMs === undefined ? {} : { deadlineMs }) });
  return { account, stub, id, job };
}

/** Waits for the job to leave `running` (its alarms run on their own; one is run by hand in case). */
async function settled(job: JobStub, accountId: string, waitMs = 60_000): Promise<JobView> {
  await runDurableObjectAlarm(job);
  const started = Date.now();
  let view = (await job.view(accountId)) as JobView | null;
  while (view?.status === 'running' && Date.now() - started < waitMs) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    view = (await job.view(accountId)) as JobView | null;
  }
  if (!view) throw new Error('no job');
  return view;
}

/** The platform's 2 MB row limit, played by a trigger (and one more refusal, `also`, when given). */
function productionRowLimit(also?: string) {
  return (sql: SqlStorage) => {
    sql.exec(
      `CREATE TRIGGER items_row_limit BEFORE INSERT ON items WHEN length(CAST(NEW.data AS BLOB)) > ${PRODUCTION_ROW_LIMIT}${also ? ` OR NEW.data LIKE '%${also}%'` : ''}
       BEGIN SELECT RAISE(ABORT, 'string or blob too big: SQLITE_TOOBIG'); END`,
    );
  };
}

describe('a crawl job past its deadline', () => {
  it('settles with what it has instead of running on, and a job with nothing is free', async () => {
    const { account, stub, job } = await startJob({ kind: 'crawl', url: 'https://example.com/', format: 'markdown', limit: 10 }, undefined, 0);
    const view = await settled(job, account.account_id, 2_000);
    expect(view).toMatchObject({ status: 'failed', cost: 0, page_count: 0, result_url: null, error: expect.stringMatching(/deadline/) });
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    expect(await job.view(crypto.randomUUID())).toBeNull();
  });
});

describe('a crawl item above what a Durable Object row may hold', () => {
  it('crawls a 10 MB page: the page lives in R2, the row keeps its key, and the owner gets the page whole', { timeout: 180_000 }, async () => {
    const site = inject('websiteUrl');
    const { account, stub, id, job } = await startJob({ kind: 'crawl', url: `${site}/large`, format: 'markdown', limit: 1 }, productionRowLimit());
    const view = await settled(job, account.account_id, 150_000);
    expect(view).toMatchObject({ status: 'completed', page_count: 1, cost: 0.005, failed_urls: 0 });

    const rows = await runInDurableObject(job, (_instance, state) =>
      state.storage.sql.exec<{ size: number; r2_key: string | null; bytes: number }>('SELECT length(CAST(data AS BLOB)) AS size, r2_key, bytes FROM items').toArray(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.size).toBeLessThan(16);
    expect(rows[0]!.r2_key).toBe(`results/${account.account_id}/${id}/items/0`);
    expect(rows[0]!.bytes).toBeGreaterThan(9_000_000);
    // Once settled the page is in the result set, and its R2 copy is gone.
    expect(await env.MEDIA.head(rows[0]!.r2_key!)).toBeNull();

    const res = await call(`/v1/crawl/${id}`, bearer(account.api_key));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/application\/json/);
    const body = (await res.json()) as JobView & { pages: { url: string; title: string; markdown: string; status: number }[] };
    expect(body).toMatchObject({ id, status: 'completed', page_count: 1, result_url: `https://gateway.test/files/results/${account.account_id}/${id}.json` });
    expect(body).not.toHaveProperty('inline');
    expect(body.pages).toHaveLength(1);
    const page = body.pages[0]!;
    expect(page).toMatchObject({ url: `${site}/large`, title: 'Large Page', status: 200 });
    expect(new TextEncoder().encode(JSON.stringify(page)).byteLength).toBe(rows[0]!.bytes);
    expect(page.markdown).toContain('## Section 0');
    expect(page.markdown).toContain(`## Section ${LARGE_PAGE_SECTIONS - 1}`);

    const result = (await (await env.MEDIA.get(`results/${account.account_id}/${id}.json`))!.json()) as { id: string; url: string; pages: unknown[] };
    expect(result).toEqual({ id, url: `${site}/large`, pages: body.pages });
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 995_000, heldMicros: 0 });
  });

  it('keeps small pages in their rows, and fails only the page that cannot be stored', { timeout: 60_000 }, async () => {
    const site = inject('websiteUrl');
    const { account, stub, id, job } = await startJob({ kind: 'crawl', url: `${site}/`, format: 'markdown', limit: 3 }, productionRowLimit('About Example'));
    const view = await settled(job, account.account_id);
    // The about page cannot be stored: it fails alone, and the crawl goes on to its limit.
    expect(view).toMatchObject({ status: 'completed', page_count: 3, failed_urls: 1, cost: 0.015 });
    const rows = await runInDurableObject(job, (_instance, state) => state.storage.sql.exec<{ size: number; r2_key: string | null }>('SELECT length(data) AS size, r2_key FROM items').toArray());
    for (const row of rows) {
      expect(row.r2_key).toBeNull();
      expect(row.size).toBeLessThan(MAX_ROW_ITEM_BYTES);
    }
    const body = (await (await call(`/v1/crawl/${id}`, bearer(account.api_key))).json()) as { pages: { url: string }[] };
    expect(body.pages).toHaveLength(3);
    expect(body.pages[0]!.url).toBe(`${site}/`);
    expect(body.pages.map((page) => page.url)).not.toContain(`${site}/about`);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 985_000, heldMicros: 0 });
  });
});

describe('an extract record above what a Durable Object row may hold', () => {
  it('lives in R2 while the job runs, and the owner gets it whole', { timeout: 60_000 }, async () => {
    const site = inject('websiteUrl');
    const { account, id, job } = await startJob({ kind: 'extract', scraper: 'product-page', urls: [`${site}/large-product`, `${site}/products/1`], limit: 2 }, productionRowLimit());
    expect(await settled(job, account.account_id)).toMatchObject({ status: 'completed', record_count: 2, cost: 0.02, failed_urls: 0 });
    const rows = await runInDurableObject(job, (_instance, state) => state.storage.sql.exec<{ r2_key: string | null }>('SELECT r2_key FROM items ORDER BY seq').toArray());
    expect(rows.filter((row) => row.r2_key !== null)).toHaveLength(1);
    const body = (await (await call(`/v1/extract/${id}`, bearer(account.api_key))).json()) as { records: { name: string; description?: string }[]; pages?: unknown };
    expect(body.pages).toBeUndefined();
    expect(body.records.map((record) => record.name).sort()).toEqual(['Trail Shoe 1', 'Trail Shoe 9']);
    expect(body.records.find((record) => record.name === 'Trail Shoe 9')!.description!.length).toBeGreaterThan(2 * 1024 * 1024);
  });
});

describe('a web job whose step throws', () => {
  it('is retried, then fails for free with its hold released, never left running', { timeout: 30_000 }, async () => {
    const site = inject('websiteUrl');
    const refuseQueueUpdates = (sql: SqlStorage) => sql.exec(`CREATE TRIGGER queue_broken BEFORE UPDATE ON queue BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`);
    const { account, stub, job } = await startJob({ kind: 'extract', scraper: 'product-page', urls: [`${site}/products/1`], limit: 1 }, refuseQueueUpdates);
    const view = await settled(job, account.account_id, 20_000);
    expect(view).toMatchObject({ status: 'failed', cost: 0, record_count: 0, error: expect.stringMatching(/internal error; nothing was charged/) });
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });
});
