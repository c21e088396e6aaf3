import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { call } from './helpers';

describe('discovery', () => {
  it('reports health with the package version and uptime', async () => {
    const res = await call('/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({ status: 'ok', version, timestamp: expect.any(String), uptime: expect.any(Number) });
    expect(Math.abs(Date.parse(body.timestamp as string) - Date.now())).toBeLessThan(60_000);
    expect(Number.isInteger(body.uptime)).toBe(true);
  });

  it('publishes protected-resource metadata with agent_auth', async () => {
    const res = await call('/.well-known/oauth-protected-resource');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      resource: 'https://gateway.test',
      bearer_methods_supported: ['header'],
      resource_documentation: 'https://gateway.test/auth.md',
      agent_auth: {
        spec: 'https://gateway.test/openapi.json',
        auth_md: 'https://gateway.test/auth.md',
        identity_endpoint: 'https://gateway.test/agent/register',
        claim_endpoint: 'https://gateway.test/agent/claim/init',
        identity_types_supported: ['anonymous'],
        credential_type: 'api_key',
      },
    });
  });

  it('serves auth.md as Markdown that walks an agent through every step', async () => {
    const res = await call('/auth.md');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/markdown/);
    const text = await res.text();
    for (const step of ['POST https://gateway.test/agent/register', '/agent/fund', 'GET https://gateway.test/agent/account', '/agent/claim/init', '/agent/claim/poll', 'POST https://gateway.test/agent/keys', 'DELETE https://gateway.test/agent/keys/{key_id}']) {
      expect(text).toContain(step);
    }
  });

  it('serves llms.txt', async () => {
    const res = await call('/llms.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(/^# /);
    expect(text).toContain('https://gateway.test/auth.md');
  });

  it('serves an OpenAPI 3.1 document, version 1.0.0, that covers the routes', async () => {
    const res = await call('/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; info: { version: string }; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/agent/register', '/agent/account', '/v1/models', '/health']));
  });
});
