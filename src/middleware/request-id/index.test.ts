import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../env';
import { REQUEST_ID_HEADER, requestId } from './index';

/** Every kind of response a route can make, each echoing the id it was given in its body. */
function app() {
  const hono = new Hono<AppEnv>();
  hono.use('*', requestId());
  hono.get('/json', (c) => c.json({ id: c.get('requestId') }));
  hono.get('/plain', (c) => new Response(c.get('requestId')));
  hono.get('/named', (c) => new Response(c.get('requestId'), { headers: { [REQUEST_ID_HEADER]: c.get('requestId') } }));
  // Response.redirect's headers are immutable: the middleware must copy the response.
  hono.get('/redirect', (c) => Response.redirect(`https://example.com/${c.get('requestId')}`, 302));
  hono.get('/throws', () => {
    throw new Error('boom');
  });
  hono.onError((_err, c) => c.json({ id: c.get('requestId') }, 500));
  return hono;
}

describe('request id', () => {
  it('names every response with the id its request was given, whoever built the response', async () => {
    const hono = app();
    for (const path of ['/json', '/plain', '/named', '/throws']) {
      const res = await hono.request(path);
      const id = res.headers.get(REQUEST_ID_HEADER);
      expect(id, path).toMatch(/^req_[0-9a-f]{32}$/);
      const body = await res.text();
      expect(body.includes(id!), path).toBe(true);
    }
    const redirect = await hono.request('/redirect');
    expect(redirect.status).toBe(302);
    const id = redirect.headers.get(REQUEST_ID_HEADER);
    expect(id).toMatch(/^req_/);
    expect(redirect.headers.get('Location')).toBe(`https://example.com/${id}`);
  });

  it('gives each request its own id', async () => {
    const hono = app();
    const [a, b] = await Promise.all([hono.request('/json'), hono.request('/json')]);
    expect(a.headers.get(REQUEST_ID_HEADER)).not.toBe(b.headers.get(REQUEST_ID_HEADER));
  });
});
