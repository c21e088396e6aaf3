import { createRoute, z } from '@hono/zod-openapi';
import { ROUTE_CLASSES } from '../../../durable-objects/account/types';
import { adminToken } from '../../middleware/admin-token';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { Account, bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';
import { CardPayment, Deposit } from './funding.routes';
import { Suspended } from './suspension.routes';

const AccountIdParam = z.object({ account_id: z.uuid().openapi({ param: { name: 'account_id', in: 'path' } }) });
const KeyIdParam = AccountIdParam.extend({ key_id: z.string().min(1).openapi({ param: { name: 'key_id', in: 'path' } }) });
const HoldIdParam = AccountIdParam.extend({ hold_id: z.string().min(1).max(100).openapi({ param: { name: 'hold_id', in: 'path' } }) });

export const RouteClassSchema = z.enum(ROUTE_CLASSES).openapi({
  description: 'A class of billed routes: `chat`, `images` (generations and jobs), `videos`, `speech`, `transcription`, `web` (scrape, crawl, extract), `uploads`, `embeddings`.',
});

const DecimalUsd = z.string().regex(/^-?\d{1,9}(\.\d{1,6})?$/, 'a decimal USD string with at most 6 fraction digits');
const LimitUsd = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'a non-negative decimal USD string').nullable().optional();

export const KeyGuardrailsInput = z.object({
  name: z.string().min(1).max(100).optional(),
  daily_limit_usd: LimitUsd,
  monthly_limit_usd: LimitUsd,
  total_limit_usd: LimitUsd,
  allowed_models: z.array(z.string().min(1)).max(500).nullable().optional(),
  allowed_routes: z.array(RouteClassSchema).min(1).max(ROUTE_CLASSES.length).nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
});

export const ApiKeyRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    hint: z.string(),
    created_at: z.iso.datetime(),
    revoked_at: z.iso.datetime().nullable(),
    expires_at: z.iso.datetime().nullable(),
    daily_limit_usd: UsdString.nullable(),
    monthly_limit_usd: UsdString.nullable(),
    total_limit_usd: UsdString.nullable(),
    allowed_models: z.array(z.string()).nullable(),
    allowed_routes: z.array(RouteClassSchema).nullable().openapi({ description: 'D27: the route classes the key may use; null allows every route.' }),
    parent_key_id: z.string().nullable().openapi({ description: 'D27: the key that minted this sub-key (`POST /agent/keys`); null for the account\'s own keys.' }),
  })
  .openapi('ApiKeyRecord');

const LedgerRow = z.object({
  seq: z.int(),
  kind: z.enum(['credit', 'hold', 'charge', 'release', 'audit', 'loss']).openapi({
    description:
      '`audit`: an act of amount 0 with its reason (a suspension, a key the operator created or changed). `loss` (D33): what an upstream billed beyond the hold, which the account is never charged: the operator\'s, it moves no money (its `amount_usd` is the excess, its note says the bill).',
  }),
  amount_usd: UsdString,
  balance_after_usd: UsdString,
  hold_id: z.string().nullable(),
  key_id: z.string().nullable(),
  source: z.string().nullable(),
  note: z.string().nullable(),
  request_id: z.string().nullable().openapi({ description: 'The request behind a hold and its charge and release rows.' }),
  member_account_id: z.uuid().optional().openapi({ description: "D29, an organization's rows: the member account whose request it was (key_id is that member's key)." }),
  created_at: z.iso.datetime(),
});

const OpenHold = z.object({
  id: z.string(),
  key_id: z.string().nullable(),
  amount_usd: UsdString,
  purpose: z.string(),
  request_id: z.string().nullable(),
  created_at: z.iso.datetime(),
  expires_at: z.iso.datetime().openapi({ description: 'Released unsettled after this instant, unless its request renews it.' }),
});

const DurableObjectCalls = z
  .object({
    since: z.iso.datetime().openapi({ description: "When the account's Durable Object started counting (it was loaded); counted in memory, so the counts restart with it." }),
    calls: z.int().openapi({ description: 'RPC calls of the request path that reached it: `apply` (a batch from a Worker or a settlement journal) and the direct money calls.' }),
    by_method: z.record(z.string(), z.int()),
    ops: z.record(z.string(), z.int()).openapi({ description: 'The operations those calls carried (`hold`, `settle`, `release`, `extend`, ...): ops ÷ calls is the mean batch.' }),
  })
  .openapi({ description: "Calls that reached the account's Durable Object, for sizing a busy account against its limit of about a thousand calls a second." });

/** Most ledger rows on one page, and the default. */
export const LEDGER_PAGE_MAX = 500;
const LEDGER_PAGE_DEFAULT = 100;

const admin = { tags: ['admin'], security: bearerAuth };

export const credit = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/accounts/{account_id}/credits',
  summary: 'Credit (or, with a negative amount, correct) an account; idempotent with an Idempotency-Key header',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: {
    params: AccountIdParam,
    headers: z.object({ 'idempotency-key': z.string().min(1).max(200).optional() }),
    body: jsonBody(z.object({ amount_usd: DecimalUsd.openapi({ example: '12.50' }), reason: z.string().min(1).max(500) })),
  },
  responses: {
    200: jsonResponse(z.object({ account_id: z.uuid(), balance_usd: UsdString }), 'The new balance'),
    ...errors(400, 401, 404),
  },
});

export const getAccount = createRoute({
  ...admin,
  method: 'get',
  path: '/admin/accounts/{account_id}',
  summary: 'An account with its keys (no secrets), open holds and last 50 ledger rows',
  middleware: [adminToken()] as const,
  request: { params: AccountIdParam },
  responses: {
    200: jsonResponse(
      Account.extend({
        keys: z.array(ApiKeyRecord),
        holds: z.array(OpenHold),
        expired_unsettled_holds: z.int().openapi({ description: 'Holds released at their deadline and never charged: requests whose Worker died.' }),
        loss_usd: z.string().openapi({ description: "D33: the sum of the account's `loss` rows, what upstreams billed beyond its holds (the operator's, never the account's)." }),
        ledger: z.array(LedgerRow),
        durable_object_calls: DurableObjectCalls,
        suspended: Suspended,
        funding: z.object({ card_payments: z.array(CardPayment), deposits: z.array(Deposit) }).openapi({ description: 'Card payments and USDC deposits, newest first.' }),
      }),
      'The account',
    ),
    ...errors(401, 404),
  },
});

export const getLedger = createRoute({
  ...admin,
  method: 'get',
  path: '/admin/accounts/{account_id}/ledger',
  summary: "The account's whole ledger, newest first, a page at a time",
  middleware: [adminToken()] as const,
  request: {
    params: AccountIdParam,
    query: z.object({
      limit: z.coerce.number().int().min(1).max(LEDGER_PAGE_MAX).default(LEDGER_PAGE_DEFAULT),
      cursor: z.string().regex(/^[1-9]\d{0,15}$/, 'a next_cursor from a previous page').optional().openapi({ description: 'The previous page\'s `next_cursor`.' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ data: z.array(LedgerRow), next_cursor: z.string().nullable() }), 'A page of rows'),
    ...errors(400, 401, 404),
  },
});

export const releaseHold = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/accounts/{account_id}/holds/{hold_id}/release',
  summary: 'Release an open hold without a charge (an orphaned request); idempotent',
  middleware: [adminToken(), limitBody(16 * KiB), parseJsonBody()] as const,
  request: { params: HoldIdParam, body: jsonBody(z.object({ reason: z.string().min(1).max(500) })) },
  responses: {
    200: jsonResponse(
      z.object({
        hold_id: z.string(),
        released: z.boolean().openapi({ description: 'False when the hold was already closed (settled, released or expired).' }),
        balance_usd: UsdString,
      }),
      'The hold is closed',
    ),
    ...errors(400, 401, 404),
  },
});

export const createKey = createRoute({
  ...admin,
  method: 'post',
  path: '/admin/accounts/{account_id}/keys',
  summary: 'Create another key on the account, with optional guardrails',
  middleware: [adminToken(), limitBody(64 * KiB), parseJsonBody()] as const,
  request: { params: AccountIdParam, body: jsonBody(KeyGuardrailsInput) },
  responses: {
    201: jsonResponse(z.object({ api_key: z.string().length(48), key: ApiKeyRecord }), 'The key, shown once'),
    ...errors(400, 401, 404),
  },
});

export const updateKey = createRoute({
  ...admin,
  method: 'patch',
  path: '/admin/accounts/{account_id}/keys/{key_id}',
  summary: "Change a key's guardrails, or revoke it",
  middleware: [adminToken(), limitBody(64 * KiB), parseJsonBody()] as const,
  request: { params: KeyIdParam, body: jsonBody(KeyGuardrailsInput.extend({ revoked: z.boolean().optional() })) },
  responses: { 200: jsonResponse(ApiKeyRecord, 'The key'), ...errors(400, 401, 404) },
});
