import { describe, expect, it } from 'vitest';
import { SELF_FETCH_HEADER, SELF_FETCH_TOKEN, SELF_REFUSAL_HEADER } from '../../src/web/guard';
import { call, expectError } from './helpers';

describe('a request made by the gateway’s own web fetchers', () => {
  it.each(['/health', '/v1/models', '/files/outputs/x/y.png', '/agent/register'])('is refused on %s with the self-fetch mark', async (path) => {
    const res = await call(path, { headers: { [SELF_FETCH_HEADER]: SELF_FETCH_TOKEN } });
    expect(res.headers.get(SELF_REFUSAL_HEADER)).toBe('1');
    await expectError(res, 403, 'guardrail_blocked', 'authorization_error');
  });

  it('leaves every other request alone', async () => {
    const res = await call('/health', { headers: { [SELF_FETCH_HEADER]: 'someone-else' } });
    expect(res.status).toBe(200);
    expect(res.headers.get(SELF_REFUSAL_HEADER)).toBeNull();
  });
});
