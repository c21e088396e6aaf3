import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { findScraper } from '../../web/extract';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { crawlHandler, extractHandler, getCrawlHandler, getExtractHandler, listScrapersHandler } from './jobs.handlers';
import { crawl, extract, getCrawl, getExtract, listScrapers } from './jobs.routes';
import type { WEB } from './paths';
import { CRAWL_PAGE_MICROS, EXTRACT_RECORD_MICROS, SCRAPE_PRICE_MICROS } from './pricing';
import { scrapeHandler } from './scrape.handlers';
import { scrape } from './scrape.routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(scrape, scrapeHandler)
    .openapi(crawl, crawlHandler)
    .openapi(getCrawl, getCrawlHandler)
    .openapi(extract, extractHandler)
    .openapi(listScrapers, listScrapersHandler)
    .openapi(getExtract, getExtractHandler);
}

export const prices: ProductModule<BilledPathIn<typeof WEB>>['prices'] = {
  '/v1/scrape': async (body) => {
    const { stealth } = parseBody(scrape, body);
    return {
      model: null,
      worstMicros: SCRAPE_PRICE_MICROS[stealth === false ? 'standard' : 'stealth'],
      minMicros: SCRAPE_PRICE_MICROS[stealth === true ? 'stealth' : 'standard'],
      estimatedMicros: SCRAPE_PRICE_MICROS[stealth === true ? 'stealth' : 'standard'],
    };
  },
  '/v1/crawl': async (body) => {
    const micros = parseBody(crawl, body).limit * CRAWL_PAGE_MICROS;
    return { model: null, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
  '/v1/extract': async (body) => {
    const { scraper, limit } = parseBody(extract, body);
    if (!findScraper(scraper)) throw new GatewayError('invalid_request', `No scraper ${scraper}; GET /v1/extract/scrapers lists them.`, { param: 'scraper' });
    const micros = limit * EXTRACT_RECORD_MICROS;
    return { model: null, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
};

const post = (path: string) => (args: Record<string, unknown>) => ({ method: 'POST' as const, path, body: args });

export const tools: ProductModule<never>['tools'] = [
  { name: 'scrape', description: 'Fetch one web page as markdown, html or text (POST /v1/scrape). Billed per page.', args: bodySchemaOf(scrape), request: post('/v1/scrape') },
  {
    name: 'crawl',
    description: 'Start crawling a site (POST /v1/crawl); poll with get_job {kind: "crawl"}. Billed per page.',
    args: bodySchemaOf(crawl),
    request: post('/v1/crawl'),
  },
  {
    name: 'extract',
    description: 'Start a ready-made structured scraper (POST /v1/extract); poll with get_job {kind: "extract"}. Billed per record.',
    args: bodySchemaOf(extract),
    request: post('/v1/extract'),
  },
];
