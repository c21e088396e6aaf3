import { GatewayError } from '../errors';
import type { GuardOptions } from './guard';
import { isBlocked } from './challenge';
import { fetchStandard } from './rails/standard';
import { fetchStealth, stealthConfigured } from './rails/stealth';
import type { RailResult, Tier } from './rails/types';

export type StealthMode = boolean | 'auto';

export interface LoadedPage {
  tier: Tier;
  status: number;
  finalUrl: string;
  html: string;
  contentType: string;
}

export interface LoadOptions {
  env: Env;
  guard: GuardOptions & { fetcher?: typeof fetch };
  timeoutMs: number;
  /** `auto` escalates only when the stealth price is already held. */
  stealthAffordable: boolean;
}

/**
 * Fetches a page on the rail `mode` asks for. Blocks (401/403/429/503 or a challenge page) on the
 * standard rail escalate to stealth under `auto`; error pages and blocks are failures, never
 * content, so they are never billed (D1).
 */
export async function loadPage(url: string, mode: StealthMode, options: LoadOptions): Promise<LoadedPage> {
  if (mode === true) return accept(await fetchStealth(url, options), 'stealth', url);

  const standard = await fetchStandard(url, options);
  if (!standard.ok || !isBlocked(standard.status, standard.html)) return accept(standard, 'standard', url);
  if (mode === 'auto' && stealthConfigured(options.env) && options.stealthAffordable) {
    return accept(await fetchStealth(url, options), 'stealth', url);
  }
  const why = mode === 'auto' ? (stealthConfigured(options.env) ? ' and the balance does not cover the stealth rail' : ' and the stealth rail is not configured') : '; retry with "stealth": "auto" or true';
  throw new GatewayError('scrape_blocked', `${url} answered with an anti-bot block (HTTP ${standard.status})${why}.`);
}

function accept(result: RailResult, tier: Tier, url: string): LoadedPage {
  if (!result.ok) {
    if (result.kind === 'rejected') throw new GatewayError('invalid_request', `Refused to fetch: ${result.message}`, { param: 'url' });
    if (result.kind === 'unavailable') throw new GatewayError('provider_unavailable', result.message, { retryAfter: 60 });
    throw new GatewayError('fetch_failed', result.message);
  }
  if (tier === 'stealth' && isBlocked(result.status, result.html)) {
    throw new GatewayError('scrape_blocked', `${url} still answered with an anti-bot challenge on the stealth rail.`);
  }
  if (result.status >= 400) throw new GatewayError('fetch_failed', `${result.finalUrl} answered HTTP ${result.status}.`);
  return { tier, status: result.status, finalUrl: result.finalUrl, html: result.html, contentType: result.contentType };
}
