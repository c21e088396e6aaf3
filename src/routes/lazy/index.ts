import type { Hono, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { type Chain, runChain } from './chain';
import { type GroupName, LAZY_ROUTES, loadGroup } from './table';

/** Hono's form of an OpenAPI path: `/keys/{id}` → `/keys/:id`. */
export const honoPath = (path: string) => path.replaceAll(/\/{(.+?)}/g, '/:$1');

const built = new Map<GroupName, Promise<Map<string, Chain>>>();

/** A group's routes, registered once per isolate on an app of their own: each route's chain by `METHOD path`. */
export function groupChains(group: GroupName): Promise<Map<string, Chain>> {
  let chains = built.get(group);
  if (!chains) {
    // `api-app` brings zod and @hono/zod-openapi: imported with the first group, not at startup.
    chains = Promise.all([import('../api-app'), loadGroup(group)]).then(([{ apiApp }, module]) => {
      const app = apiApp();
      module.register(app);
      const byRoute = new Map<string, Chain[number][]>();
      for (const { method, path, handler } of app.routes) {
        const key = `${method} ${path}`;
        byRoute.set(key, [...(byRoute.get(key) ?? []), handler]);
      }
      return byRoute;
    });
    // A failed import is retried by the next request rather than remembered.
    chains.catch(() => built.delete(group));
    built.set(group, chains);
  }
  return chains;
}

/**
 * Adds every route of `LAZY_ROUTES` to the app, in order, as a stub matched on the route's own
 * method and path: the first request to a group builds it (`groupChains`), and each request then
 * runs its route's chain in its own context, so middleware, validation errors and handlers are
 * those `app.openapi` would have installed.
 */
export function lazyRoutes(app: Hono<AppEnv>) {
  for (const [group, method, path] of LAZY_ROUTES) {
    const key = `${method.toUpperCase()} ${honoPath(path)}`;
    app.on(method.toUpperCase(), honoPath(path), async (c, next) => {
      const chain = (await groupChains(group)).get(key);
      if (!chain) throw new Error(`route ${key} is not registered by its group ${group}`);
      await runChain(chain, c, next);
    });
  }
}

let warmed = false;

/**
 * Middleware: once the first request of an isolate has answered, builds the chat group in
 * `waitUntil` (zod, the chat schema, its handlers), so the first chat of an isolate that began with
 * another request (`/health`, a page) finds it built, or awaits the same promise (`groupChains`).
 * The first request itself is not delayed.
 */
export function warmChatAfterFirstRequest(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (warmed) return;
    warmed = true;
    try {
      c.executionCtx.waitUntil(groupChains('chat').catch(() => undefined));
    } catch {
      // No execution context (a direct `app.fetch` call): nothing to warm in.
    }
  };
}
