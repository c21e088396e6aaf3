import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from '../../env';
import { COST_HEADER } from '../../billing/headers';
import { requestLine, type RequestLogFields } from '../../observability/request-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * One structured JSON line per request (docs/operators/observability.md), written when the response is
 * complete: at once for a plain answer, when the stream ends for one whose handler set
 * `c.var.log.until` (its cost is known only then). Handlers add what they know to `c.var.log`;
 * this reads the rest from the context it already has (no I/O, one JSON.stringify). The route is
 * the matched pattern (`/uploads/:token`), never the path: capability tokens stay out of logs. A
 * request no route matched logs its path instead, with segments that may be secrets taken out.
 */
export function requestLog(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = Date.now();
    const fields: RequestLogFields = {};
    c.set('log', fields);
    await next();
    const write = () => {
      const route = routePath(c);
      const status = c.res.status;
      fields.account_id ??= c.get('caller')?.accountId ?? adminAccount(c.req.param('account_id'));
      fields.key_id ??= c.get('caller')?.account.keyId;
      fields.cost_usd ??= c.res.headers.get(COST_HEADER) ?? undefined;
      const line = requestLine(
        { requestId: c.get('requestId'), method: c.req.method, route: route === '*' || route === '/*' ? null : route, path: c.req.path, status, totalMs: Date.now() - started, error: c.error },
        fields,
      );
      console.log(JSON.stringify(line));
    };
    if (fields.until) void fields.until.then(write, write);
    else write();
  };
}

/** An operator route's account (`/admin/accounts/:account_id/...`), when the path names one. */
function adminAccount(param: string | undefined): string | undefined {
  return param !== undefined && UUID.test(param) ? param : undefined;
}
