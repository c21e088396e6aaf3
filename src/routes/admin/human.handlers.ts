import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { emailSender } from '../../human/email';
import { resetHuman, type Reclaim } from '../../human/reset';
import { maskEmail } from '../../human/verification';
import { publicBaseUrl } from '../../urls';
import type { resetHuman as resetHumanRoute } from './human.routes';

export const resetHumanHandler: RouteHandler<typeof resetHumanRoute, AppEnv> = async (c) => {
  const { account_id } = c.req.valid('param');
  const { reason } = c.req.valid('json');
  const canMail = emailSender(c.env, publicBaseUrl(c)) !== undefined;
  const outcome = await resetHuman(c.env, account_id, reason, c.req.valid('header')['idempotency-key'], canMail, Date.now());
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
      ...reclaimBody(outcome.reclaim),
    },
    200,
  );
};

/** D36, as the answer says it: the masked address the next claim's code goes to, or the one-time claim token (shown once). */
function reclaimBody(reclaim: Reclaim) {
  switch (reclaim.by) {
    case 'email':
      return { reclaim: 'email' as const, reclaim_email: maskEmail(reclaim.email) };
    case 'token':
      return { reclaim: 'claim_token' as const, claim_token: reclaim.token, claim_token_expires_at: new Date(reclaim.expiresAt).toISOString() };
    case 'unchanged':
      return {};
  }
}
