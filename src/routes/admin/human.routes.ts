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
  })
  .openapi('HumanReset');

export const resetHuman = createRoute({
  tags: ['admin'],
  security: bearerAuth,
  method: 'post',
  path: '/admin/accounts/{account_id}/human/reset',
  summary: "Remove the human's passkeys and sessions; the account stays claimed and can be claimed again with its claim token",
  description:
    'For a human who lost their passkey, or an account whose handover must be redone. Recorded as an audit row; with an `Idempotency-Key` header a retry answers the first reset instead of resetting again.',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    params: AccountIdParam,
    headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
    body: jsonBody(z.object({ reason: z.string().min(1).max(500) })),
  },
  responses: { 200: jsonResponse(HumanReset, 'The human is reset'), ...errors(400, 401, 404) },
});
