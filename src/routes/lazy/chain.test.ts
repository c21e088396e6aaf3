import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { runChain } from './chain';

/** An app whose route runs its real steps through `runChain`, as a lazy stub does. */
function appWith(chain: Parameters<typeof runChain>[0], after?: (c: Parameters<typeof runChain>[1]) => Response) {
  const app = new Hono<AppEnv>();
  app.use('*', async (c, next) => {
    c.set('requestId', 'req_test');
    await next();
    c.res.headers.set('X-Seen-Status', String(c.res.status));
    c.res.headers.set('X-Route', c.req.routePath);
  });
  app.get('/things/:id', async (c, next) => runChain(chain, c, next), ...(after ? [after] : []));
  return app;
}

describe('a lazily built route chain', () => {
  it('keeps the matched route: its parameters and its path, whatever its own steps are', async () => {
    const seen: (string | undefined)[] = [];
    const step = async (c: Parameters<typeof runChain>[1], next: () => Promise<void>) => {
      seen.push(c.req.param('id'));
      await next();
    };
    const app = appWith([step, step, step, (c) => c.json({ id: c.req.param('id'), route: c.req.routePath })]);
    const res = await app.request('/things/42');
    expect(await res.json()).toEqual({ id: '42', route: '/things/:id' });
    expect(seen).toEqual(['42', '42', '42']);
    expect(res.headers.get('X-Route')).toBe('/things/:id');
  });

  it('renders a step that throws as the envelope, and the middleware before it sees that answer', async () => {
    const app = appWith([
      async (c, next) => {
        await next();
        c.res.headers.set('X-Inner-Saw', String(c.res.status));
      },
      () => {
        throw new GatewayError('invalid_request', 'bad thing', { param: 'id' });
      },
    ]);
    const res = await app.request('/things/1');
    expect(res.status).toBe(400);
    expect(res.headers.get('X-Inner-Saw')).toBe('400');
    expect(res.headers.get('X-Seen-Status')).toBe('400');
    expect(((await res.json()) as { error: { code: string; param: string } }).error).toMatchObject({ code: 'invalid_request', param: 'id' });
  });

  it("continues to the app's next handler when the chain's last step calls next", async () => {
    const app = appWith([async (_c, next) => next()], (c) => c.text('after'));
    expect(await (await app.request('/things/1')).text()).toBe('after');
  });
});
