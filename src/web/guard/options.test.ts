import { describe, expect, it } from 'vitest';
import { checkUrl } from './check';
import { guardFailureError } from './errors';
import { guardOptionsFromEnv } from './options';

describe('guardOptionsFromEnv', () => {
  it('splits WEB_ALLOW_PRIVATE_HOSTS on commas and keeps the own host', () => {
    expect(guardOptionsFromEnv({ WEB_ALLOW_PRIVATE_HOSTS: ' localhost, 127.0.0.1:9000 ,,[::1] ' }, 'gateway.example.net')).toEqual({
      allowHosts: ['localhost', '127.0.0.1:9000', '[::1]'],
      ownHosts: ['gateway.example.net'],
    });
  });

  it.each([{}, { WEB_ALLOW_PRIVATE_HOSTS: '' }, { WEB_ALLOW_PRIVATE_HOSTS: ' , ' }])('allows no private host when unset or empty (%j)', (env) => {
    expect(guardOptionsFromEnv(env, 'gateway.example.net').allowHosts).toEqual([]);
  });

  it('gives options that keep the gateway from fetching itself during local runs', async () => {
    const options = guardOptionsFromEnv({ WEB_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }, '127.0.0.1:8787');
    expect((await checkUrl('http://127.0.0.1:8787/v1/models', options)).ok).toBe(false);
    expect((await checkUrl('http://127.0.0.1:8788/page', options)).ok).toBe(true);
  });
});

describe('guardFailureError', () => {
  it('makes a refused URL a 400 naming the field', () => {
    const error = guardFailureError({ ok: false, kind: 'rejected', reason: 'The host localhost is a private-network name.' });
    expect(error.status).toBe(400);
    expect(error.body()).toEqual({
      error: { code: 'invalid_request', type: 'invalid_request_error', message: 'The host localhost is a private-network name.', param: 'url' },
    });
    expect(guardFailureError({ ok: false, kind: 'rejected', reason: 'x' }, 'urls.2').options.param).toBe('urls.2');
  });

  it.each(['too_many_redirects', 'network', 'timeout'] as const)('makes %s a 502 fetch_failed', (kind) => {
    const error = guardFailureError({ ok: false, kind, reason: 'r' });
    expect([error.status, error.code]).toEqual([502, 'fetch_failed']);
  });
});
