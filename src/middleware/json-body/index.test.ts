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

  it("keeps the client's signal on a request it re-declares as JSON, so a client that leaves is still noticed", async () => {
    const hono = new OpenAPIHono<AppEnv>();
    const route = createRoute({
      method: 'post',
      path: '/wait',
      middleware: [parseJsonBody()] as const,
      request: { body: { content: { 'application/json': { schema: z.object({}) } }, required: true } },
      responses: { 200: { description: 'answers once the client has left' } },
    });
    const waiting = hono.openapi(route, (c) => new Promise<Response>((resolve) => c.req.raw.signal.addEventListener('abort', () => resolve(c.json({ noticed: true })))));
    for (const contentType of ['text/plain', 'application/json;']) {
      const client = new AbortController();
      const pending = waiting.request('/wait', { method: 'POST', body: '{}', headers: { 'Content-Type': contentType }, signal: client.signal });
      await new Promise((resolve) => setTimeout(resolve, 10));
      client.abort();
      expect(await (await pending).json(), contentType).toEqual({ noticed: true });
    }
  });
});
