import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { ADMIN_TOKEN, bearer, call, expectError, freshIp, json } from './helpers';

describe('the error envelope', () => {
  it('names the field at fault for a validation failure', async () => {
    const res = await call('/agent/register', json({ type: 42 }, { 'CF-Connecting-IP': freshIp() }));
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'type');
  });

  it('names a nested field with a dotted path', async () => {
    const res = await call(
      `/admin/accounts/${crypto.randomUUID()}/keys`,
      bearer(ADMIN_TOKEN, json({ allowed_models: ['openai/gpt-4o', ''] })),
    );
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'allowed_models.1');
  });

  it('answers malformed JSON with 400 invalid_request', async () => {
    const res = await call('/agent/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': freshIp() },
      body: '{"type": "anonymous"',
    });
    const body = await expectError(res, 400, 'invalid_request', 'invalid_request_error');
    expect(body.error.message).toMatch(/JSON/);
  });

  it('answers a missing body with 400 naming the first required field', async () => {
    const res = await call('/agent/register', { method: 'POST', headers: { 'CF-Connecting-IP': freshIp() } });
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'type');
  });

  it('answers an unknown route with 404 not_found', async () => {
    await expectError(await call('/v1/nothing-here'), 404, 'not_found', 'invalid_request_error');
  });

  it('answers a body over the route limit with 413 in the envelope', async () => {
    const res = await call('/agent/register', json({ type: 'anonymous', padding: 'x'.repeat(20_000) }));
    await expectError(res, 413, 'request_too_large', 'invalid_request_error');
  });

  it('turns an unexpected exception into a bare 500 api_error with the request id', async () => {
    const app = createApp();
    app.get('/explode', () => {
      throw new Error('database password is hunter2');
    });
    const res = await app.request('/explode', {}, env);
    const body = await expectError(res, 500, 'api_error', 'api_error');
    const id = res.headers.get('X-Service-Request-Id');
    expect(body.error.message).toContain(id);
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(JSON.stringify(body)).not.toContain('at ');
  });

  it('gives every response its own request id', async () => {
    const [a, b] = await Promise.all([call('/health'), call('/health')]);
    expect(a.headers.get('X-Service-Request-Id')).toMatch(/^req_/);
    expect(a.headers.get('X-Service-Request-Id')).not.toBe(b.headers.get('X-Service-Request-Id'));
  });
});
