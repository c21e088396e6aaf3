import { describe, expect, it } from 'vitest';
import { createApp } from '../app';
import { loadTools } from '../mcp/tools';
import { apiApp } from '../routes/api-app';
import { honoPath } from '../routes/lazy';
import type { RouteSpec } from './contract';
import { BILLED_PATHS, PRODUCTS, type ProductName } from './index';

const products = Object.entries(PRODUCTS) as [ProductName, (typeof PRODUCTS)[ProductName]][];

/** What a product's module registers: each OpenAPI route's method and path, in order. */
async function registered(product: (typeof PRODUCTS)[ProductName]) {
  const app = apiApp();
  (await product.load()).register(app);
  return app.openAPIRegistry.definitions.flatMap((d) => (d.type === 'route' ? [{ method: d.route.method, path: d.route.path }] : []));
}

describe('the products table', () => {
  it.each(products)('%s: its declared routes are exactly the routes its module registers, in order', async (_name, product) => {
    expect(await registered(product)).toEqual(product.routes.map(({ method, path }: RouteSpec) => ({ method, path })));
  });

  it('serves under /v1 exactly the routes derived from PRODUCTS, besides the free account routes written in the table', () => {
    const FREE = ['GET /v1/models', 'GET /v1/generations', 'POST /v1/uploads', 'GET /v1/uploads', 'POST /v1/quote', 'GET /v1/requests/:request_id'];
    const served = new Set(createApp().routes.filter((r) => r.path.startsWith('/v1/') && r.method !== 'ALL').map((r) => `${r.method} ${r.path}`));
    const derived = products.flatMap(([, product]) => product.routes.map(({ method, path }: RouteSpec) => `${method.toUpperCase()} ${honoPath(path)}`));
    expect([...served].filter((route) => !FREE.includes(route)).sort()).toEqual(derived.sort());
    expect(BILLED_PATHS.map((path) => `POST ${path}`).every((route) => served.has(route))).toBe(true);
    expect([...BILLED_PATHS].sort()).toEqual(
      ['/v1/audio/speech', '/v1/audio/transcriptions', '/v1/chat/completions', '/v1/crawl', '/v1/embeddings', '/v1/extract', '/v1/images/generations', '/v1/images/jobs', '/v1/messages', '/v1/responses', '/v1/scrape', '/v1/videos/generations'],
    );
  });

  it("offers each product's tools over MCP, each calling one of its own product's routes", async () => {
    const { list } = await loadTools();
    for (const [name, product] of products) {
      const { tools } = await product.load();
      for (const tool of tools) {
        expect(list).toContain(tool);
        const planned = tool.request({});
        if ('refuse' in planned) continue;
        expect(product.routes.some((r: RouteSpec) => r.path === planned.path && r.method === planned.method.toLowerCase()), `${tool.name} → ${planned.path}`).toBe(true);
      }
    }
    // The contract's tools (D24), in their order: a product's tools are part of its folder, not written beside it.
    expect(list.map((tool) => tool.name)).toEqual(['list_models', 'chat_completion', 'generate_image', 'create_speech', 'transcribe', 'scrape', 'crawl', 'extract', 'create_embedding', 'get_job', 'get_account', 'fund_account']);
  });
});
