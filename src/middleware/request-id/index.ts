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
    await next();
    // Set on the final response rather than prepared before (a hot route that names it itself pays nothing more).
    const headers = c.res.headers;
    if (headers.get(REQUEST_ID_HEADER) === id) return;
    try {
      headers.set(REQUEST_ID_HEADER, id);
    } catch {
      // A Response built elsewhere (a proxied upstream) has immutable headers: copy it.
      c.res = new Response(c.res.body, c.res);
      c.res.headers.set(REQUEST_ID_HEADER, id);
    }
  };
}
