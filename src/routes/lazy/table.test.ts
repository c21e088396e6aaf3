import { describe, expect, it } from 'vitest';
import { apiApp } from '../api-app';
import * as discoveryRoutes from '../discovery/discovery.routes';
import * as modelsRoutes from '../models/models.routes';
import * as discovery from './discovery';
import { GROUP_NAMES, type GroupName, LAZY_ROUTES, loadGroup } from './table';

/** What a group's module registers: each OpenAPI route's method and path, in order. */
async function registered(group: GroupName) {
  const app = apiApp();
  (await loadGroup(group)).register(app);
  return app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [[group, d.route.method, d.route.path]] : []));
}

describe('the lazy route table', () => {
  it('lists exactly the routes each group registers, in the order they register them', async () => {
    const groups = GROUP_NAMES;
    const all = (await Promise.all(groups.map(registered))).flat();
    expect(LAZY_ROUTES.map((r) => [...r])).toEqual(all);
  });

  it('leaves no route of the OpenAPI document to discovery and models but the parameterless GETs served as plain routes', () => {
    const app = apiApp();
    discovery.register(app);
    const routes = app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [d.route] : []));
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['get /health', 'get /.well-known/oauth-protected-resource', 'get /auth.md', 'get /llms.txt', 'get /v1/models']);
    // A request schema or middleware here would be skipped by the plain route: it must move to a lazy group.
    for (const route of [...Object.values(discoveryRoutes), ...Object.values(modelsRoutes)]) {
      if (typeof route !== 'object' || !('path' in route)) continue;
      expect('request' in route).toBe(false);
      expect('middleware' in route).toBe(false);
    }
  });
});
