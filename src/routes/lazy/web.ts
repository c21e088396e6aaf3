import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as jobs from '../../products/web/jobs.handlers';
import * as jobsRoutes from '../../products/web/jobs.routes';
import * as scrape from '../../products/web/scrape.handlers';
import * as scrapeRoutes from '../../products/web/scrape.routes';

/** Scrape, crawl and extract: the `web` group of `LAZY_ROUTES`, in its order. */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(scrapeRoutes.scrape, scrape.scrapeHandler)
    .openapi(jobsRoutes.crawl, jobs.crawlHandler)
    .openapi(jobsRoutes.getCrawl, jobs.getCrawlHandler)
    .openapi(jobsRoutes.extract, jobs.extractHandler)
    .openapi(jobsRoutes.listScrapers, jobs.listScrapersHandler)
    .openapi(jobsRoutes.getExtract, jobs.getExtractHandler);
}
