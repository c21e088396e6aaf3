import type { RouteHandler } from '@hono/zod-openapi';
import type { RequestRecord } from '../../../durable-objects/account/requests';
import { withHold } from '../../accounts/billed';
import { COST_HEADER, CREDITS_HEADER } from '../../billing/headers';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd, toUsdNumber } from '../../money';
import { convertPage } from '../../web/convert';
import { loadPage } from '../../web/load-page';
import { admitUrl, requestGuard } from '../../web/policy';
import { SCRAPE_PRICE_MICROS } from './pricing';
import type { scrape } from './scrape.routes';
import { metadataBody } from './wire';

/**
 * `POST /v1/scrape`: hold the price of the rail that may serve (the key is checked there), admit
 * the URL (guard, blocklist, robots.txt), fetch, convert, then charge the rail that served. Any
 * failure releases the hold: rejected URLs, blocks, errors and empty pages cost nothing (D1).
 */
export const scrapeHandler: RouteHandler<typeof scrape, AppEnv> = async (c) => {
  const startedAt = Date.now();
  const { url, format, stealth, timeout_ms } = c.req.valid('json');
  const requestId = c.get('requestId');
  const ask = {
    route: 'web' as const,
    minMicros: SCRAPE_PRICE_MICROS[stealth === true ? 'stealth' : 'standard'],
    maxMicros: SCRAPE_PRICE_MICROS[stealth === false ? 'standard' : 'stealth'],
    purpose: 'scrape',
    ttlMs: timeout_ms * 3,
  };
  return withHold(
    c,
    ask,
    async (hold, settle) => {
      const guard = requestGuard(c);
      await admitUrl(url, c.env, guard);
      const loading = Date.now();
      const page = await loadPage(url, stealth, {
        env: c.env,
        guard,
        timeoutMs: timeout_ms,
        stealthAffordable: hold.amountMicros >= SCRAPE_PRICE_MICROS.stealth,
      });
      c.var.log.rail = page.tier;
      c.var.log.upstream_ms = Date.now() - loading;
      const converted = convertPage(page.html, page.finalUrl, format);
      if (!converted) throw new GatewayError('no_content', `${page.finalUrl} has no extractable content.`);

      const settled = await settle(SCRAPE_PRICE_MICROS[page.tier], scrapeRecord(requestId, startedAt, 1));
      return c.json(
        {
          url,
          final_url: page.finalUrl,
          status: page.status,
          format,
          content: converted.content,
          metadata: metadataBody(converted.metadata),
          tier: page.tier,
          cost: toUsdNumber(settled.costMicros),
        },
        200,
        { [COST_HEADER]: formatUsd(settled.costMicros), [CREDITS_HEADER]: formatUsd(settled.balanceMicros) },
      );
    },
    () => scrapeRecord(requestId, startedAt, 0),
  );
};

/** D26: what the request's lookup shows (its unit: pages). */
function scrapeRecord(requestId: string, startedAt: number, pages: number): RequestRecord {
  return { requestId, path: '/v1/scrape', model: null, provider: null, startedAt, durationMs: Date.now() - startedAt, streamed: false, usage: { pages } };
}
