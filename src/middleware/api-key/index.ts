import type { MiddlewareHandler } from 'hono';
import { AccountClient } from '../../accounts/account-client';
import { accountIdOfApiKey, sha256Hex } from '../../accounts/credentials';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { executionContext } from '../../execution-context';

/**
 * Reads the bearer key and names its account's Durable Object, without any I/O: the key carries
 * its account id (D12). The Durable Object verifies the key inside the one call the route makes
 * (`authorizeHold`, `accountForKey`, ...), so a request crosses it once. Paying per request is
 * its own middleware beside it (`x402Payment`, `src/x402/middleware.ts`).
 */
export function apiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('Authorization');
    if (!header) throw new GatewayError('missing_api_key', 'Send your API key as "Authorization: Bearer ak-...".');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new GatewayError('missing_api_key', 'The Authorization header must be "Bearer <API key>".');
    const identity = await identify(match[1]);
    if (!identity) throw new GatewayError('invalid_api_key', 'The API key is not valid.');
    c.set('caller', { ...identity, account: new AccountClient(c.env, identity.accountId, executionContext(c)) });
    await next();
  };
}

interface KeyIdentity {
  accountId: string;
  keyHash: string;
}

/** Keys seen lately, with their account and hash: a busy key is decoded and hashed once per isolate, not once per request. */
const identities = new Map<string, KeyIdentity>();
const MAX_IDENTITIES = 1024;

/** The account a key names and the key's hash; null when the key names no account. */
async function identify(key: string): Promise<KeyIdentity | null> {
  const known = identities.get(key);
  if (known) return known;
  const accountId = accountIdOfApiKey(key);
  if (!accountId) return null;
  const identity = { accountId, keyHash: await sha256Hex(key) };
  if (identities.size >= MAX_IDENTITIES) identities.delete(identities.keys().next().value!);
  identities.set(key, identity);
  return identity;
}
