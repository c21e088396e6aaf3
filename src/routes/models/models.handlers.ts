import type { RouteHandler } from '@hono/zod-openapi';
import { liveModels } from '../../catalog';
import { modelEntry } from '../../catalog/model-entry';
import type { AppEnv } from '../../env';
import { chatEndpoints } from '../../products/chat/endpoints';
import type { listModels } from './models.routes';

export const listModelsHandler: RouteHandler<typeof listModels, AppEnv> = (c) => {
  const data = liveModels(c.env).map(({ model, route }) => ({ ...modelEntry(model, route), ...(model.type === 'chat' && { endpoints: chatEndpoints(model, c.env) }) }));
  return c.json({ object: 'list' as const, data }, 200);
};
