import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEnv } from '../../env';
import { parseJsonBody } from './index';

/** A JSON route as the gateway declares them: the body parsed by the middleware, then validated. */
function app() {
  const hono = new OpenAPIHono<AppEnv>();
  const route = createRoute({
    method: 'post',
    path: '/echo',
    middleware: [parseJsonBody()] as const,
    request: { body: { content: { 'application/json': { schema: z.object({ messages: z.array(z.string()) }) } }, required: true } },
    responses: { 200: { description: 'the body as validated' } },
  });
  return hono.openapi(route, async (c) => c.json({ count: c.req.valid('json').messages.length, again: (await c.req.json<{ messages: string[] }>()).messages.length }));
}

describe('JSON body', () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses a request body once, however many readers it has', async () => {
    const body = JSON.stringify({ messages: Array.from({ length: 100 }, (_, i) => `turn ${i}`) });
    const parse = vi.spyOn(JSON, 'parse');
    for (const contentType of ['application/json', 'text/plain']) {
      parse.mockClear();
      const res = await app().request('/echo', { method: 'POST', body, headers: { 'Content-Type': contentType } });
      expect(res.status, contentType).toBe(200);
      expect(await res.json(), contentType).toEqual({ count: 100, again: 100 });
      expect(parse.mock.calls.filter(([text]) => text === body), contentType).toHaveLength(1);
    }
  });
});
