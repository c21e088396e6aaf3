import type { MiddlewareHandler } from 'hono';
import { hashesEqual, sha256Hex } from '../../accounts/credentials';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';

/** Guards the operator API with `ADMIN_TOKEN`; unset means the admin API is closed. */
export function adminToken(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const expected = c.env.ADMIN_TOKEN;
    if (!expected) throw new GatewayError('invalid_admin_token', 'The admin API is disabled: ADMIN_TOKEN is not set.');
    const given = /^Bearer\s+(\S+)\s*$/i.exec(c.req.header('Authorization') ?? '')?.[1] ?? '';
    // Hash both sides so the comparison takes the same time whatever the lengths.
    if (!hashesEqual(await sha256Hex(given), await sha256Hex(expected))) {
      throw new GatewayError('invalid_admin_token', 'The admin token is not valid.');
    }
    await next();
  };
}
