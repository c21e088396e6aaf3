import type { RouteSpec } from '../contract';

/** Web context: one page scraped inline; crawls and extracts as jobs polled by id. */
export const WEB = {
  scrape: { method: 'post', path: '/v1/scrape', billed: 'web' },
  crawl: { method: 'post', path: '/v1/crawl', billed: 'web' },
  getCrawl: { method: 'get', path: '/v1/crawl/{id}' },
  extract: { method: 'post', path: '/v1/extract', billed: 'web' },
  listScrapers: { method: 'get', path: '/v1/extract/scrapers' },
  getExtract: { method: 'get', path: '/v1/extract/{id}' },
} as const satisfies Record<string, RouteSpec>;
