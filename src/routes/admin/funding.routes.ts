import { createRoute, z } from '@hono/zod-openapi';
import { adminToken } from '../../middleware/admin-token';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';

const admin = { tags: ['admin'], security: bearerAuth };

export const Deposit = z
  .object({
    id: z.string().openapi({ description: '`<tx hash>:<log index>`' }),
    tx_hash: z.string(),
    log_index: z.int(),
    block_number: z.int(),
    from: z.string(),
    amount_usdc: z.string(),
    status: z.enum(['pending', 'credited', 'unmatched', 'reversed']),
    account_id: z.string().nullable(),
    payment_intent: z.string().nullable(),
    seen_at: z.iso.datetime(),
    credited_at: z.iso.datetime().nullable(),
    note: z.string().nullable(),
  })
  .openapi('Deposit');

export const CardPayment = z
  .object({
    id: z.string(),
    amount_usd: UsdString,
    status: z.enum(['open', 'processing', 'paid', 'expired']),
    checkout_session: z.string().nullable(),
    created_at: z.iso.datetime(),
    paid_at: z.iso.datetime().nullable(),
  })
  .openapi('CardPayment');

export const unmatchedDeposits = createRoute({
  ...admin,
  method: 'get',
  path: '/admin/deposits/unmatched',
  summary: 'USDC deposits that matched no open intent, newest first, for crediting by hand',
  middleware: [adminToken()] as const,
  request: { query: z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) }) },
  responses: { 200: jsonResponse(z.object({ data: z.array(Deposit) }), 'Unmatched deposits'), ...errors(400, 401) },
});

export const creditDeposit = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/deposits/{deposit_id}/credit',
  summary: 'Credit an unmatched deposit to an account; once per deposit, whoever credits it',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    params: z.object({ deposit_id: z.string().regex(/^0x[0-9a-f]{64}:\d{1,6}$/, 'a deposit id `<tx hash>:<log index>`').openapi({ param: { name: 'deposit_id', in: 'path' } }) }),
    body: jsonBody(z.object({ account_id: z.uuid(), reason: z.string().min(1).max(500) })),
  },
  responses: {
    200: jsonResponse(z.object({ deposit: Deposit, credited: z.boolean(), balance_usd: UsdString }), 'The deposit, credited'),
    ...errors(400, 401, 404),
  },
});
