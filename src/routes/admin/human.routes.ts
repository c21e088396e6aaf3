import { createRoute, z } from '@hono/zod-openapi';
import { adminToken } from '../../middleware/admin-token';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../schemas';

const AccountIdParam = z.object({ account_id: z.uuid().openapi({ param: { name: 'account_id', in: 'path' } }) });

export const HumanReset = z
  .object({
    account_id: z.uuid(),
    reset_id: z.string().openapi({ description: 'The audit record of this reset.' }),
    passkeys_removed: z.int(),
    sessions_revoked: z.int(),
    reset_at: z.iso.datetime(),
    reclaim: z
      .enum(['email', 'claim_token'])
      .optional()
      .openapi({ description: "D36: how the account is claimed again: by the code mailed to the reset human's verified address, or with `claim_token`. Absent on an idempotent retry." }),
    reclaim_email: z.string().optional().openapi({ description: 'The address on record, masked (`so•••@example.com`).' }),
    claim_token: z
      .string()
      .optional()
      .openapi({ description: 'When no address is on record: a one-time claim token for `POST /agent/claim/init`, shown once; it claims the account once, within 72 hours.' }),
    claim_token_expires_at: z.iso.datetime().optional(),
  })
  .openapi('HumanReset');

export const resetHuman = createRoute({
  tags: ['admin'],
  security: bearerAuth,
  method: 'post',
  path: '/admin/accounts/{account_id}/human/reset',
  summary: "Remove the human's passkeys and sessions; the account stays claimed and can be claimed again only as D36 says",
  description:
    "For a human who lost their passkey, or an account whose handover must be redone. The agent's claim token no longer claims the account alone: a new claim is bound to the reset human's verified address (its code is mailed there), or, with none on record, needs the one-time `claim_token` answered here (72 hours, one claim). Recorded as an audit row; with an `Idempotency-Key` header a retry answers the first reset (without its token) instead of resetting again.",
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    params: AccountIdParam,
    headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
    body: jsonBody(z.object({ reason: z.string().min(1).max(500) })),
  },
  responses: { 200: jsonResponse(HumanReset, 'The human is reset'), ...errors(400, 401, 404) },
});
