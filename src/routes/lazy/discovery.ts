import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as discovery from '../discovery/discovery.handlers';
import * as discoveryRoutes from '../discovery/discovery.routes';
import * as models from '../models/models.handlers';
import * as modelsRoutes from '../models/models.routes';

/**
 * Discovery and the model list as `/openapi.json` documents them. The app serves the same handlers
 * as plain routes (`src/routes/plain.ts`): they take no parameters, so there is nothing to validate.
 */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(discoveryRoutes.health, discovery.healthHandler)
    .openapi(discoveryRoutes.protectedResource, discovery.protectedResourceHandler)
    .openapi(discoveryRoutes.authMd, discovery.authMdHandler)
    .openapi(discoveryRoutes.llmsTxt, discovery.llmsTxtHandler)
    .openapi(modelsRoutes.listModels, models.listModelsHandler);
}
