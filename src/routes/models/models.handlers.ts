import type { RouteHandler } from '@hono/zod-openapi';
import { liveModels } from '../../catalog';
import { discoverLocalModels } from '../../catalog/local';
import { executionContext } from '../../execution-context';
import { modelEntry } from '../../catalog/model-entry';
import type { AppEnv } from '../../env';
import { chatEndpoints } from '../../products/chat/endpoints';
import type { listModels } from './models.routes';

export const listModelsHandler: RouteHandler<typeof listModels, AppEnv> = async (c) => {
  // The local server's models (`catalog/local.ts`); a malformed LOCAL_OPENAI_PRICES leaves them out, logged.
  await discoverLocalModels(c.env, (promise) => executionContext(c)?.waitUntil(promise)).catch((err: unknown) => console.error(err instanceof Error ? err.message : err));
  const data = liveModels(c.env).map(({ model, route }) => ({ ...modelEntry(model, route), ...(model.type === 'chat' && { endpoints: chatEndpoints(model, c.env) }) }));
  return c.json({ object: 'list' as const, data }, 200);
};
