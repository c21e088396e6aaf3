import type { Context, MiddlewareHandler, Next } from 'hono';
import type { HandlerResponse } from 'hono/types';
import type { AppEnv } from '../../env';

/** A handler or middleware as modules export them (an OpenAPI `RouteHandler` answers a typed Response). */
type Step = (c: Context<AppEnv>, next: Next) => HandlerResponse<unknown> | Promise<void> | void;

/**
 * A handler (or middleware) whose module is imported by the first request that runs it, not at
 * startup: `lazy(() => import('./x'), 'name')` runs `name` of `./x` as if it had been registered itself.
 */
export function lazy<K extends string, M extends { [P in K]: Step }>(load: () => Promise<M>, name: K): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const res = await (await load())[name](c, next);
    return res instanceof Response ? res : undefined;
  };
}
