import type { RouteHandler } from '@hono/zod-openapi';
import type { SubKeyRefusal } from '../../../durable-objects/account/sub-keys';
import { MAX_LIVE_KEYS } from '../../../durable-objects/account/sub-keys';
import type { KeyRecord } from '../../../durable-objects/account/types';
import { newApiKey, sha256Hex } from '../../accounts/credentials';
import { holdFailureError } from '../../accounts/failures';
import { keyBody } from '../../accounts/wire';
import { findModel } from '../../catalog';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd, parseUsd } from '../../money';
import type { createSubKey, listKeys, revokeKey } from './keys.routes';

/**
 * D27's key routes. Each is one call to the caller's account Durable Object, which checks the
 * calling key and applies the rules (`durable-objects/account/sub-keys.ts`), so a revocation is
 * seen by the very next request: nothing in the Worker remembers whether a key works.
 */

export const createSubKeyHandler: RouteHandler<typeof createSubKey, AppEnv> = async (c) => {
  const body = c.req.valid('json');
  const unknown = body.allowed_models?.findIndex((model) => !findModel(model)) ?? -1;
  if (unknown >= 0) {
    throw new GatewayError('invalid_request', `No model ${body.allowed_models![unknown]}; GET /v1/models lists the model ids.`, { param: `allowed_models.${unknown}` });
  }
  const caller = c.get('caller');
  const apiKey = newApiKey(caller.accountId);
  const stub = await caller.account.direct();
  const result = await stub.mintSubKey(caller.keyHash, {
    hash: await sha256Hex(apiKey),
    hint: `ak-…${apiKey.slice(-4)}`,
    name: body.name,
    totalLimitMicros: body.limit_usd === undefined ? null : parseUsd(body.limit_usd),
    expiresAt: body.expires_in === undefined ? null : Date.now() + body.expires_in * 1000,
    allowedModels: body.allowed_models ? [...new Set(body.allowed_models)] : null,
    allowedRoutes: body.allowed_routes ? [...new Set(body.allowed_routes)] : null,
  });
  if (!result.ok) throw refusalError(result);
  return c.json({ api_key: apiKey, ...agentKeyBody(result.key) }, 201);
};

export const listKeysHandler: RouteHandler<typeof listKeys, AppEnv> = async (c) => {
  const caller = c.get('caller');
  const result = await (await caller.account.direct()).keysForKey(caller.keyHash);
  if (!result.ok) throw holdFailureError(result);
  return c.json({ data: result.keys.map((key) => ({ ...agentKeyBody(key), spent_usd: formatUsd(key.spentMicros) })) }, 200);
};

export const revokeKeyHandler: RouteHandler<typeof revokeKey, AppEnv> = async (c) => {
  const { key_id: keyId } = c.req.valid('param');
  const caller = c.get('caller');
  const result = await (await caller.account.direct()).revokeKeyForKey(caller.keyHash, keyId);
  if (!result.ok) throw refusalError(result, keyId);
  return c.json(agentKeyBody(result.key), 200);
};

function refusalError(refusal: SubKeyRefusal, keyId?: string): GatewayError {
  switch (refusal.reason) {
    case 'sub_key':
      return new GatewayError('guardrail_blocked', 'A sub-key may not mint or revoke keys; use a key of the account that is not a sub-key.');
    case 'limited_key':
      return new GatewayError('guardrail_blocked', 'A key with a spend limit may not mint or revoke keys; use a key of the account without limits that is not a sub-key.');
    case 'too_many_keys':
      return new GatewayError(
        'guardrail_blocked',
        refusal.live
          ? `This account already has ${MAX_LIVE_KEYS} working keys; revoke one (DELETE /agent/keys/{key_id}) first.`
          : `This account holds ${refusal.limit} keys; revoked and expired sub-keys are deleted 7 days after they stop working.`,
      );
    case 'exceeds_parent':
      return new GatewayError('guardrail_blocked', `A sub-key gets no more than the key that mints it, and that key's ${refusal.field} do not include "${refusal.value}".`, { param: refusal.field });
    case 'no_such_key':
      return new GatewayError('not_found', `This account has no key ${keyId ?? ''}.`.trim(), { param: 'key_id' });
    default:
      return holdFailureError(refusal);
  }
}

/** A key as `/agent/keys` shows it: the operator's view, with the total limit named `limit_usd` as the request names it. */
function agentKeyBody(key: KeyRecord) {
  const { total_limit_usd, ...rest } = keyBody(key);
  return { ...rest, limit_usd: total_limit_usd };
}
