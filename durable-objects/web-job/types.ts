import type { PageFormat } from '../../src/web/convert';

export interface CrawlParams {
  kind: 'crawl';
  url: string;
  format: PageFormat;
  limit: number;
}

export interface ExtractParams {
  kind: 'extract';
  scraper: string;
  urls: string[];
  limit: number;
}

export interface JobStart {
  id: string;
  accountId: string;
  holdId: string;
  base: string;
  params: CrawlParams | ExtractParams;
  /** The guard's allow-list and own hosts, fixed at submission (the resolver is the default). */
  guard: { allowHosts: string[]; ownHosts: string[] };
  /** How long the job may run before it settles with what it has; default `JOB_DEADLINE_MS`. */
  deadlineMs?: number;
}

/** One crawled page: the spec's fields, and the page in the requested format when it is not markdown. */
export interface CrawledPage {
  url: string;
  title: string;
  markdown: string;
  status: number;
  html?: string;
  text?: string;
}

/** The spec's crawl or extract job as the owner polls it. */
export interface JobView {
  id: string;
  status: 'running' | 'completed' | 'failed';
  cost: number;
  result_url: string | null;
  error?: string;
  page_count?: number;
  scraper?: string;
  record_count?: number;
  failed_urls: number;
  created_at: string;
  completed_at?: string;
  /** A freshly settled job's `pages`/`records`: the byte range of that array in the R2 result set (not sent to the client). */
  inline?: { key: string; offset: number; length: number };
}
