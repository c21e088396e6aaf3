import type { Hono } from 'hono';
import type { AppEnv } from '../env';
import * as discovery from './discovery/discovery.handlers';
import { lazy } from './lazy/handler';

/**
 * Discovery and the model list, served without building their zod schemas: none takes a parameter
 * or body, so `app.openapi` would add no validator and these are the same chains. Their OpenAPI
 * definitions (`discovery.routes.ts`, `models.routes.ts`) are read only for `/openapi.json`.
 */
export function registerPlainRoutes(app: Hono<AppEnv>) {
  app
    .get('/health', discovery.healthHandler)
    .get('/.well-known/oauth-protected-resource', discovery.protectedResourceHandler)
    .get('/auth.md', discovery.authMdHandler)
    .get('/llms.txt', discovery.llmsTxtHandler)
    // The catalog's module loads with the first model list (the chat group loads it too).
    .get('/v1/models', lazy(() => import('./models/models.handlers'), 'listModelsHandler'));
}
