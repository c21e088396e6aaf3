import type { MiddlewareHandler } from 'hono';
import { AccountClient } from '../../accounts/account-client';
import { accountIdOfApiKey, sha256Hex } from '../../accounts/credentials';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { executionContext } from '../../execution-context';

/** Where Anthropic clients (`@anthropic-ai/sdk`, `@ai-sdk/anthropic`, Claude Code) send the key. */
const API_KEY_HEADER = 'x-api-key';

/**
 * The key a request presents (contract, "Agent clients"): `Authorization: Bearer <key>` or
 * `x-api-key: <key>`; both are fine when they carry the same key, and a 401 when they differ
 * (which one was meant is unknowable). Null when neither header is sent.
 */
export function presentedKey(headers: Headers): string | null {
  const authorization = headers.get('Authorization');
  const bearer = authorization === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (bearer === undefined) throw new GatewayError('missing_api_key', 'The Authorization header must be "Bearer <API key>".');
  const header = headers.get(API_KEY_HEADER)?.trim();
  if (header === '') throw new GatewayError('missing_api_key', 'The x-api-key header is empty: send your API key in it.');
  if (bearer && header && bearer !== header) {
    throw new GatewayError('invalid_api_key', 'The Authorization and x-api-key headers carry different API keys. Send one key.');
  }
  return bearer ?? header ?? null;
}

/**
 * Reads the key (`presentedKey`) and names its account's Durable Object, without any I/O: the key
 * carries its account id (D12). The Durable Object verifies the key inside the one call the route
 * makes (`authorizeHold`, `accountForKey`, ...), so a request crosses it once. Paying per request
 * is its own middleware beside it (`x402Payment`, `src/x402/middleware.ts`).
 */
export function apiKey(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = presentedKey(c.req.raw.headers);
    if (!key) throw new GatewayError('missing_api_key', 'Send your API key as "Authorization: Bearer ak-..." or "x-api-key: ak-...".');
    const identity = await identify(key);
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

/**
 * For routes that look for the key in `Authorization` themselves (keyless x402 at `/x402/v1`, which
 * serves a request with a key as its `/v1` route): a key sent as `x-api-key` alone is passed on as
 * a bearer key too, so it is not mistaken for a keyless request.
 */
export function apiKeyAsBearer(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.req.raw.headers.has('Authorization') ? null : presentedKey(c.req.raw.headers);
    if (key) {
      const headers = new Headers(c.req.raw.headers);
      headers.set('Authorization', `Bearer ${key}`);
      c.req.raw = new Request(c.req.raw, { headers });
    }
    await next();
  };
}
