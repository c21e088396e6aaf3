import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { resetHuman } from '../../human/reset';
import type { resetHuman as resetHumanRoute } from './human.routes';

export const resetHumanHandler: RouteHandler<typeof resetHumanRoute, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { reason } = c.req.valid('json');
  const outcome = await resetHuman(c.env, account_id, reason, c.req.valid('header')['idempotency-key'], Date.now());
  if (!outcome.ok) {
    if (outcome.reason === 'no_account') throw new GatewayError('not_found', `No account ${account_id}.`);
    throw new GatewayError('invalid_request', 'This Idempotency-Key was used for a reset of another account.', { param: 'Idempotency-Key' });
  }
  const { reset } = outcome;
  return c.json(
    {
      account_id,
      reset_id: reset.id,
      passkeys_removed: reset.passkeysRemoved,
      sessions_revoked: reset.sessionsRevoked,
      reset_at: new Date(reset.createdAt).toISOString(),
    },
    200,
  );
};
