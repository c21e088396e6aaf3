import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { SELF_FETCH_HEADER, SELF_FETCH_TOKEN, SELF_REFUSAL_HEADER } from '../../web/guard';

/**
 * Refuses a request made by the gateway's own web fetchers (scrape, crawl, extract, robots.txt,
 * chat images): the guard then knows it reached itself, whatever host name it used.
 */
export function refuseSelfFetch(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.header(SELF_FETCH_HEADER) === SELF_FETCH_TOKEN) {
      c.header(SELF_REFUSAL_HEADER, '1');
      throw new GatewayError('guardrail_blocked', 'The gateway does not fetch itself.');
    }
    await next();
  };
}
