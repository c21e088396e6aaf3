import { describe, expect, it } from 'vitest';
import { call, register } from './helpers';

/**
 * A page's form post whose body claims to be multipart and is not (a part without
 * `Content-Disposition`) is the client's 400 `invalid_request` on every page that reads a form,
 * before any session, CSRF or claim check: the runtime's form parser threw, and that was a 500.
 */
const broken: RequestInit = {
  method: 'POST',
  headers: { 'Content-Type': 'multipart/form-data; boundary=x', Origin: 'https://gateway.test' },
  body: '--x\r\nfoo: bar\r\n\r\nv\r\n--x--\r\n',
};

describe('a malformed form post', () => {
  it.each(['/claim/clm_nope', '/claim/clm_nope/email', '/claim/clm_nope/email/resend', '/dashboard/signout', '/dashboard/security/passkeys/revoke', '/dashboard/security/sessions/revoke', '/dashboard/security/signout-everywhere', '/fund/{token}/usdc'])(
    'is a 400 invalid_request at %s',
    async (path) => {
      // The fund page reads its form only for a fund link that exists.
      const fundPath = path.includes('{token}') ? new URL((await register()).fund_url).pathname.slice('/fund/'.length) : '';
      const res = await call(path.replace('{token}', fundPath), broken);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    },
  );
});
