import { describe, expect, it } from 'vitest';
import { call, register } from './helpers';

/**
 * The pages are one room with their own error handler: a browser (which asks for HTML on every
 * navigation and form post) is answered with a page in the pages' frame and CSP, never the API's
 * JSON; our scripts and API clients, which do not ask for HTML, keep the envelope.
 */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

const formPost = (fields: Record<string, string>, accept?: string): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://gateway.test', ...(accept ? { Accept: accept } : {}) },
  body: new URLSearchParams(fields).toString(),
});

async function expectErrorPage(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(res.headers.get('x-service-request-id')).toBeTruthy();
  const html = await res.text();
  expect(html).toMatch(/^<!DOCTYPE html>/);
  expect(html).toContain(`data-code="${code}"`);
  expect(html).toContain(res.headers.get('x-service-request-id')!);
  return html;
}

describe('errors on the pages', () => {
  it('answers a browser form post without a valid CSRF token with a page, not JSON', async () => {
    const res = await call('/dashboard/signout', formPost({ csrf: 'forged' }, BROWSER_ACCEPT));
    const html = await expectErrorPage(res, 400, 'invalid_request');
    expect(html).toContain('reload the page');
    expect(html).toContain('data-param="csrf"');
  });

  it('answers a malformed multipart post from a browser with a page', async () => {
    const { fund_url } = await register();
    const res = await call(`${new URL(fund_url).pathname}/usdc`, {
      method: 'POST',
      headers: { 'Content-Type': 'multipart/form-data; boundary=x', Origin: 'https://gateway.test', Accept: BROWSER_ACCEPT },
      body: '--x\r\nfoo: bar\r\n\r\nv\r\n--x--\r\n',
    });
    await expectErrorPage(res, 400, 'invalid_request');
  });

  it('answers a browser that opens an address nobody serves with a 404 page', async () => {
    await expectErrorPage(await call('/dashboard/no-such-page', { headers: { Accept: BROWSER_ACCEPT } }), 404, 'not_found');
  });

  it('keeps the JSON envelope for scripts and API clients, which do not ask for HTML', async () => {
    const script = await call('/dashboard/signout', formPost({ csrf: 'forged' }));
    expect(script.status).toBe(400);
    expect(((await script.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    const api = await call('/v1/no-such-route', { headers: { Accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});
