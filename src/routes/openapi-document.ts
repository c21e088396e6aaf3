import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { version } from '../../package.json';
import type { AppEnv } from '../env';
import { apiApp } from './api-app';
import * as discovery from './lazy/discovery';
import { GROUP_NAMES, loadGroup } from './lazy/table';

let registry: Promise<OpenAPIHono<AppEnv>> | undefined;

/** Every route registered in the route table's order (discovery and models, then each lazy group), once per isolate. */
async function documentedApp(): Promise<OpenAPIHono<AppEnv>> {
  const app = apiApp();
  discovery.register(app);
  for (const group of GROUP_NAMES) (await loadGroup(group)).register(app);
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key `ak-...` (48 characters), also taken as an `x-api-key` header on every /v1 route; for /admin, the operator token.',
  });
  return app;
}

/** `GET /openapi.json`: the document `app.doc31` would serve, built on the first request for it. */
export async function openApiDocument(c: Context<AppEnv>): Promise<Response> {
  if (!registry) {
    registry = documentedApp();
    registry.catch(() => (registry = undefined));
  }
  const app = await registry;
  try {
    const document = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: {
        title: 'AI Gateway',
        version: '1.0.0',
        description: `One API key and one prepaid USD balance for chat, media and web context. Gateway build ${version}.`,
      },
      servers: [{ url: c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin }],
    });
    return c.json(document);
  } catch (e) {
    return c.json(e, 500);
  }
}
