import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { tokenCostMicros } from '../billing/cost';
import { planChat } from './chat/chat-plan';
import type { ChatModel, TokenPrice } from '../catalog/types';
import type { RouteClass } from '../../durable-objects/account/types';
import type { AppEnv } from '../env';
import { GatewayError, validationError } from '../errors';
import { imageHoldMicros } from './images/cost';
import { planImages } from './images/plan';
import { planSpeech } from './speech/plan';
import { requireStoredUploads } from '../media/upload-check';
import { planVideo } from './videos/plan';
import { chatCompletions } from './chat/routes';
import { generateImages, submitImageJob } from './images/routes';
import { speech } from './speech/routes';
import { submitVideo } from './videos/routes';
import { crawl, extract } from './web/jobs.routes';
import { scrape } from './web/scrape.routes';
import { findScraper } from '../web/extract';
import { CRAWL_PAGE_MICROS, EXTRACT_RECORD_MICROS, SCRAPE_PRICE_MICROS } from './web/pricing';
import { publicBaseUrl } from '../urls';

/** What a billed request would cost, worked out as its route does before it holds (D25). */
export interface PricedRequest {
  path: BilledPath;
  /** The route class a key's allowed_routes guardrail names (D27). */
  route: RouteClass;
  /** The model it would run on; null for web routes. */
  model: string | null;
  /** What the route would hold: the most it can cost. */
  worstMicros: number;
  /** The least the route would hold and still serve it (D5 lowers an unset max_tokens to what is held). */
  minMicros: number;
  /** What it is likely to cost (equal to the worst case where the price is known up front). */
  estimatedMicros: number;
  /** Chat only: what a balance buys in output tokens. */
  chat?: { model: ChatModel; price: TokenPrice; promptTokens: number; choices: number };
}

/**
 * Chat's estimate assumes a reply of this many tokens per choice (or the cap when lower): a
 * typical answer, not a bound. The worst case is the bound.
 */
export const TYPICAL_REPLY_TOKENS = 256;

type Pricer = (body: unknown, c: Context<AppEnv>) => Promise<Omit<PricedRequest, 'path' | 'route'>>;

/** Parses a body with a route's own schema: the same 400s, with the same `param`. */
function parsed<S extends z.ZodType>(route: { request: { body: { content: { 'application/json': { schema: S } } } } }, body: unknown): z.output<S> {
  const result = route.request.body.content['application/json'].schema.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

const priceImages = (route: typeof generateImages | typeof submitImageJob): Pricer => async (body, c) => {
  const plan = planImages(parsed(route, body), c.env);
  await requireStoredUploads(c.env, publicBaseUrl(c), plan.references, plan.referencesParam);
  const micros = imageHoldMicros(plan);
  return { model: plan.model.id, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
};

/** Every billed route, by path, and how its price is worked out. */
const PRICERS = {
  '/v1/chat/completions': async (body, c) => {
    const request = parsed(chatCompletions, body);
    const { model, routes, price, prompt, plan } = planChat(request, c.env);
    const choices = request.n ?? 1;
    const typical = Math.min(plan.outputCap, TYPICAL_REPLY_TOKENS * choices);
    const estimatedMicros = tokenCostMicros({ inputTokens: prompt.estimate, outputTokens: typical, cacheReadTokens: 0, cacheWriteTokens: 0 }, routes[0]!.price);
    return { model: model.id, worstMicros: plan.maxMicros, minMicros: plan.minMicros, estimatedMicros, chat: { model, price, promptTokens: plan.promptTokens, choices } };
  },
  '/v1/images/generations': priceImages(generateImages),
  '/v1/images/jobs': priceImages(submitImageJob),
  '/v1/videos/generations': async (body, c) => {
    const request = parsed(submitVideo, body);
    const plan = planVideo(request, c.env);
    await Promise.all(plan.links.map((link) => requireStoredUploads(c.env, publicBaseUrl(c), link.urls, link.param, link.kind)));
    return { model: plan.model.id, worstMicros: plan.predictedMicros, minMicros: plan.predictedMicros, estimatedMicros: plan.predictedMicros };
  },
  '/v1/audio/speech': async (body, c) => {
    const plan = planSpeech(parsed(speech, body), c.env);
    return { model: plan.model.id, worstMicros: plan.costMicros, minMicros: plan.costMicros, estimatedMicros: plan.costMicros };
  },
  '/v1/scrape': async (body) => {
    const { stealth } = parsed(scrape, body);
    return {
      model: null,
      worstMicros: SCRAPE_PRICE_MICROS[stealth === false ? 'standard' : 'stealth'],
      minMicros: SCRAPE_PRICE_MICROS[stealth === true ? 'stealth' : 'standard'],
      estimatedMicros: SCRAPE_PRICE_MICROS[stealth === true ? 'stealth' : 'standard'],
    };
  },
  '/v1/crawl': async (body) => {
    const micros = parsed(crawl, body).limit * CRAWL_PAGE_MICROS;
    return { model: null, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
  '/v1/extract': async (body) => {
    const { scraper, limit } = parsed(extract, body);
    if (!findScraper(scraper)) throw new GatewayError('invalid_request', `No scraper ${scraper}; GET /v1/extract/scrapers lists them.`, { param: 'scraper' });
    const micros = limit * EXTRACT_RECORD_MICROS;
    return { model: null, worstMicros: micros, minMicros: micros, estimatedMicros: micros };
  },
} satisfies Record<string, Pricer>;

export type BilledPath = keyof typeof PRICERS;

const ROUTE_CLASS = {
  '/v1/chat/completions': 'chat',
  '/v1/images/generations': 'images',
  '/v1/images/jobs': 'images',
  '/v1/videos/generations': 'videos',
  '/v1/audio/speech': 'speech',
  '/v1/scrape': 'web',
  '/v1/crawl': 'web',
  '/v1/extract': 'web',
} satisfies Record<BilledPath, RouteClass>;
export const BILLED_PATHS = Object.keys(PRICERS) as BilledPath[];

export function isBilledPath(path: string): path is BilledPath {
  return Object.hasOwn(PRICERS, path);
}

/**
 * Prices a billed request without holding, charging or sending anything: the route's validation
 * (400, 404 for an unknown model) and its worst case. The quote route and x402's keyless
 * challenge use it.
 */
export async function priceRequest(c: Context<AppEnv>, path: BilledPath, body: unknown): Promise<PricedRequest> {
  return { path, route: ROUTE_CLASS[path], ...(await PRICERS[path](body, c)) };
}
