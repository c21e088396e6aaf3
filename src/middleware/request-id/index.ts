import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';

export const REQUEST_ID_HEADER = 'X-Service-Request-Id';

export function newRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** Gives every request an id and every response (errors and streams included) its header (D19). */
export function requestId(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = newRequestId();
    c.set('requestId', id);
    c.header(REQUEST_ID_HEADER, id);
    await next();
    if (c.res.headers.get(REQUEST_ID_HEADER) !== id) {
      // A Response built elsewhere (a proxied upstream) may have immutable headers: copy it.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(REQUEST_ID_HEADER, id);
    }
  };
}
