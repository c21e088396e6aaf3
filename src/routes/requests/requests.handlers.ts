import type { RouteHandler } from '@hono/zod-openapi';
import { holdFailureError } from '../../accounts/failures';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd } from '../../money';
import type { getRequest } from './requests.routes';

/**
 * `GET /v1/requests/{request_id}` (D26): one call to the account's Durable Object, which checks
 * the key and reads the record. Records live in the account that made the request, so another
 * account's id is simply not found.
 */
export const getRequestHandler: RouteHandler<typeof getRequest, AppEnv> = async (c) => {
  const { request_id: requestId } = c.req.valid('param');
  const caller = c.get('caller');
  const found = await caller.account.lookupRequest(caller.keyHash, requestId);
  if (!found.ok) {
    if (found.reason === 'not_found') throw new GatewayError('not_found', `No request ${requestId} in this account.`, { param: 'request_id' });
    throw holdFailureError(found);
  }
  const record = found.request;
  return c.json(
    {
      id: record.requestId,
      path: record.path,
      model: record.model,
      provider: record.provider,
      status: record.status,
      created_at: new Date(record.startedAt).toISOString(),
      duration_ms: record.durationMs,
      streamed: record.streamed,
      cost_usd: formatUsd(record.costMicros),
      usage: record.usage,
      ...(record.attempts.length > 0 && { attempts: record.attempts }),
    },
    200,
  );
};
