import type { MiddlewareHandler } from 'hono';
import { accountIdOfApiKey, sha256Hex } from '../../accounts/credentials';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';

/**
 * Reads the bearer key and names its account's Durable Object, without any I/O: the key carries
 * its account id (D12). The Durable Object verifies the key inside the one call the route makes
 * (`authorizeHold`, `accountForKey`, ...), so a request crosses it once.
 */
export function apiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization');
    if (!header) throw new GatewayError('missing_api_key', 'Send your API key as "Authorization: Bearer ak-...".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new GatewayError('missing_api_key', 'The Authorization header must be "Bearer <API key>".');
    const key = match[1];
    const accountId = accountIdOfApiKey(key);
    if (!accountId) throw new GatewayError('invalid_api_key', 'The API key is not valid.');
    const account = c.env.ACCOUNT.get(c.env.ACCOUNT.idFromName(accountId));
    c.set('caller', { accountId, keyHash: await sha256Hex(key), account });
    await next();
  };
}
