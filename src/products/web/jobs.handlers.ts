import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { CrawlParams, ExtractParams, JobView } from '../../../durable-objects/web-job/types';
import { JOB_DEADLINE_MS } from '../../../durable-objects/web-job/web-job';
import { randomBase62 } from '../../accounts/credentials';
import { withHold } from '../../accounts/billed';
import { ownDataOf } from '../../accounts/data-scope';
import { holdFailureError } from '../../accounts/failures';
import { database } from '../../db';
import { insertWebJob, webJobKey } from '../../db/web-jobs';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { findScraper, SCRAPERS } from '../../web/extract';
import { jobResponse } from './job-response';
import { admitUrl, requestGuard } from '../../web/policy';
import { CRAWL_PAGE_MICROS, EXTRACT_RECORD_MICROS } from './pricing';
import { publicBaseUrl } from '../../urls';
import type { crawl, extract, getCrawl, getExtract, listScrapers } from './jobs.routes';

/**
 * Holds `limit` times the unit price (D14), then hands the job to its own Durable Object. A URL
 * refused at submission releases the hold: it costs nothing.
 */
async function submitJob(c: Context<AppEnv>, params: CrawlParams | ExtractParams, unitMicros: number): Promise<string> {
  const id = `${params.kind}_${randomBase62(24)}`;
  const ask = { route: 'web' as const, minMicros: params.limit * unitMicros, maxMicros: params.limit * unitMicros, purpose: params.kind, ttlMs: JOB_DEADLINE_MS + 30 * 60 * 1000 };
  // The job's Durable Object settles or releases the hold from here on (`durable-objects/web-job`).
  await withHold(c, ask, async (hold) => {
    const guard = requestGuard(c);
    if (params.kind === 'crawl') await admitUrl(params.url, c.env, guard);
    await insertWebJob(database(c.env), { id, accountId: hold.accountId, keyId: hold.keyId, kind: params.kind, createdAt: Date.now() });
    await c.env.WEB_JOB.get(c.env.WEB_JOB.idFromName(id)).start({
      id,
      accountId: hold.accountId,
      holdId: hold.holdId,
      base: publicBaseUrl(c),
      params,
      guard: { allowHosts: [...guard.allowHosts], ownHosts: [...guard.ownHosts] },
    });
  });
  return id;
}

/**
 * The job of `id` if the calling key's account owns it (and, for a sub-key, D35, if the sub-key
 * started it); 404 for anyone else, as for a missing job.
 */
async function ownedJob(c: Context<AppEnv>, id: string, kind: 'crawl' | 'extract'): Promise<JobView> {
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  const own = ownDataOf(auth);
  const mine = id.startsWith(`${kind}_`) && (own === undefined || (await webJobKey(database(c.env), id)) === own);
  const view: JobView | null = mine ? await c.env.WEB_JOB.get(c.env.WEB_JOB.idFromName(id)).view(auth.accountId) : null;
  if (!view) throw new GatewayError('not_found', `No ${kind} job ${id}.`);
  return view;
}

export const crawlHandler: RouteHandler<typeof crawl, AppEnv> = async (c) => {
  const { url, format, limit } = c.req.valid('json');
  const id = await submitJob(c, { kind: 'crawl', url, format, limit }, CRAWL_PAGE_MICROS);
  return c.json({ id, status: 'running' as const }, 202);
};

export const getCrawlHandler: RouteHandler<typeof getCrawl, AppEnv> = async (c) => {
  const { scraper: _scraper, record_count: _count, inline, ...view } = await ownedJob(c, c.req.valid('param').id, 'crawl');
  // A streamed body (the inline pages from R2) with the CrawlJob shape; the typed c.json cannot stream.
  return jobResponse(c, view, inline, 'pages') as never;
};

export const extractHandler: RouteHandler<typeof extract, AppEnv> = async (c) => {
  const { scraper, input, limit } = c.req.valid('json');
  if (!findScraper(scraper)) {
    throw new GatewayError('invalid_request', `No scraper ${scraper}; GET /v1/extract/scrapers lists them.`, { param: 'scraper' });
  }
  const urls = (Array.isArray(input) ? input : [input]).map((item) => item.url);
  const id = await submitJob(c, { kind: 'extract', scraper, urls, limit }, EXTRACT_RECORD_MICROS);
  return c.json({ id, status: 'running' as const }, 202);
};

export const getExtractHandler: RouteHandler<typeof getExtract, AppEnv> = async (c) => {
  const { page_count: _count, inline, ...view } = await ownedJob(c, c.req.valid('param').id, 'extract');
  return jobResponse(c, view, inline, 'records') as never;
};

export const listScrapersHandler: RouteHandler<typeof listScrapers, AppEnv> = async (c) => {
  const caller = c.get('caller');
  const auth = await caller.account.authenticate(caller.keyHash);
  if (!auth.ok) throw holdFailureError(auth);
  return c.json({ scrapers: SCRAPERS.map(({ name, category, input_hint, description }) => ({ name, category, input_hint, description })) }, 200);
};
