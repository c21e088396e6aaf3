import type { MiddlewareHandler } from 'hono';
import { AccountClient } from '../../accounts/account-client';
import { accountIdOfApiKey, sha256Hex } from '../../accounts/credentials';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { executionContext } from '../../execution-context';

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
    c.set('caller', { accountId, keyHash: await keyHash(key), account: new AccountClient(c.env, accountId, executionContext(c)) });
    await next();
  };
}

/** Hashes of keys seen lately: a busy key is hashed once per isolate, not once per request. */
const hashes = new Map<string, string>();
const MAX_HASHES = 1024;

async function keyHash(key: string): Promise<string> {
  const known = hashes.get(key);
  if (known) return known;
  const hash = await sha256Hex(key);
  if (hashes.size >= MAX_HASHES) hashes.delete(hashes.keys().next().value!);
  hashes.set(key, hash);
  return hash;
}
