import { createRoute, z } from '@hono/zod-openapi';
import { adminToken } from '../../middleware/admin-token';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../schemas';

/** D28: a suspension as the operator sees it (`GET /admin/accounts/{id}` and the routes below). */
export const Suspended = z
  .object({ reason: z.string(), suspended_at: z.iso.datetime() })
  .nullable()
  .openapi('Suspension', { description: 'Set while every key of the account gets 403 `account_suspended`; funding still works.' });

const AccountIdParam = z.object({ account_id: z.uuid().openapi({ param: { name: 'account_id', in: 'path' } }) });
const Reason = jsonBody(z.object({ reason: z.string().min(1).max(500) }));
const SuspensionState = jsonResponse(z.object({ account_id: z.uuid(), suspended: Suspended }), 'The account\'s suspension after the call');
const admin = { tags: ['admin'], security: bearerAuth };

export const suspend = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/accounts/{account_id}/suspend',
  summary: 'Suspend an account: every key gets 403 account_suspended; funding still works (an audit ledger row with the reason)',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { params: AccountIdParam, body: Reason },
  responses: { 200: SuspensionState, ...errors(400, 401, 404) },
});

export const unsuspend = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/accounts/{account_id}/unsuspend',
  summary: "Lift an account's suspension (an audit ledger row with the reason)",
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { params: AccountIdParam, body: Reason },
  responses: { 200: SuspensionState, ...errors(400, 401, 404) },
});
