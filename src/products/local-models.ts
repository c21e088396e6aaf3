import type { Context } from 'hono';
import { discoverLocalModels, isLocalSlug } from '../catalog/local';
import type { AppEnv } from '../env';
import { executionContext } from '../execution-context';

/**
 * Before a request's model ids are resolved: when one names a local server's model (`local/<id>`),
 * makes that server's list known (`catalog/local.ts`; waits only on an isolate's first ask, a
 * stale list is refreshed after the response). Other requests never wait for it.
 */
export async function knowLocalModels(c: Context<AppEnv>, ids: readonly unknown[]): Promise<void> {
  if (ids.some((id) => typeof id === 'string' && isLocalSlug(id))) await discoverLocalModels(c.env, (promise) => executionContext(c)?.waitUntil(promise.catch(() => {})));
}
