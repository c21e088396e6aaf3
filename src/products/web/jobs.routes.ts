import { createRoute, z } from '@hono/zod-openapi';
import { at } from '../contract';
import { WEB } from './paths';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody, MiB } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../../routes/schemas';
import { PageFormat, WebUrl } from './scrape.routes';

const JobAccepted = z.object({ id: z.string(), status: z.literal('running') }).openapi('JobAccepted');
const JobId = z.object({ id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' } }) });

const JobFields = {
  id: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  cost: z.number().openapi({ description: 'USD: accrued while running, charged once settled' }),
  result_url: z.string().nullable(),
  error: z.string().optional(),
  failed_urls: z.int(),
  created_at: z.iso.datetime(),
  completed_at: z.iso.datetime().optional(),
};

export const CrawlJob = z
  .object({
    ...JobFields,
    page_count: z.int().optional(),
    pages: z.array(z.looseObject({ url: z.string(), title: z.string(), markdown: z.string(), status: z.int() })).optional(),
  })
  .openapi('CrawlJob');

export const ExtractJob = z
  .object({
    ...JobFields,
    scraper: z.string().optional(),
    record_count: z.int().optional(),
    records: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .openapi('ExtractJob');

export const crawl = createRoute({
  ...at(WEB.crawl),
  tags: ['web'],
  summary: 'Crawl a site (same registrable domain) as a job; $0.005 per returned page, at most limit pages',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    body: jsonBody(z.object({ url: WebUrl, format: PageFormat.default('markdown'), limit: z.int().min(1).max(500).default(100) }).openapi('CrawlRequest')),
  },
  responses: { 202: jsonResponse(JobAccepted, 'Accepted'), ...errors(400, 401, 402, 403, 429) },
});

export const getCrawl = createRoute({
  ...at(WEB.getCrawl),
  tags: ['web'],
  summary: 'A crawl job',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: JobId },
  responses: { 200: jsonResponse(CrawlJob, 'The job'), ...errors(401, 404, 429) },
});

const ExtractInput = z.looseObject({ url: WebUrl });

export const extract = createRoute({
  ...at(WEB.extract),
  tags: ['web'],
  summary: 'Run a ready-made structured scraper over one or more pages; $0.01 per record, at most limit records',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(1 * MiB), parseJsonBody()] as const,
  request: {
    body: jsonBody(
      z
        .object({
          scraper: z.string().min(1),
          input: z.union([ExtractInput, z.array(ExtractInput).min(1).max(1000)]),
          limit: z.int().min(1).max(1000).default(100),
        })
        .openapi('ExtractRequest'),
    ),
  },
  responses: { 202: jsonResponse(JobAccepted, 'Accepted'), ...errors(400, 401, 402, 403, 429) },
});

export const getExtract = createRoute({
  ...at(WEB.getExtract),
  tags: ['web'],
  summary: 'An extract job',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: JobId },
  responses: { 200: jsonResponse(ExtractJob, 'The job'), ...errors(401, 404, 429) },
});

export const listScrapers = createRoute({
  ...at(WEB.listScrapers),
  tags: ['web'],
  summary: 'The ready-made scrapers',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  responses: {
    200: jsonResponse(
      z.object({
        scrapers: z.array(
          z.object({ name: z.string(), category: z.enum(['ecommerce', 'business', 'local', 'real-estate']), input_hint: z.string(), description: z.string() }),
        ),
      }),
      'The scrapers',
    ),
    ...errors(401),
  },
});
