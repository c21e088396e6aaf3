import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { liveModels } from '../../catalog';
import { discoverLocalModels } from '../../catalog/local';
import { executionContext } from '../../execution-context';
import { modelEntry } from '../../catalog/model-entry';
import type { AppEnv } from '../../env';
import { chatEndpoints } from '../../products/chat/endpoints';
import { refreshRouteHealth } from '../../products/chat/health/route-health';
import type { listModels } from './models.routes';

export const listModelsHandler: RouteHandler<typeof listModels, AppEnv> = async (c) => {
  // The local server's models (`catalog/local.ts`); a malformed LOCAL_OPENAI_PRICES leaves them out, logged.
  await discoverLocalModels(c.env, (promise) => executionContext(c)?.waitUntil(promise)).catch((err: unknown) => console.error(err instanceof Error ? err.message : err));
  const data = liveModels(c.env).map(({ model, route }) => ({ ...modelEntry(model, route), ...(model.type === 'chat' && { endpoints: chatEndpoints(model, c.env) }) }));
  // The endpoints' status is this isolate's copy of route health; it is refreshed after the answer, for the next listing.
  refreshRouteHealth({ env: c.env, colo: c.req.raw.cf?.colo }, data.flatMap((entry) => entry.endpoints?.map((endpoint) => endpoint.provider) ?? []), (work) => waitUntil(c, work));
  return c.json({ object: 'list' as const, data }, 200);
};

/**
 * `waitUntil` where the request has an execution context (not under `app.request` in unit tests).
 * Not `executionContext()`: importing it here splits it into a startup chunk of its own.
 */
function waitUntil(c: Context<AppEnv>, work: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    void work.catch(() => undefined);
  }
}
