import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { ROUTE_CLASSES } from '../../../durable-objects/account/types';
import { RouteClassSchema } from '../admin/admin.routes';
import { bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';

/** The longest a sub-key may live: a year and a day. */
export const MAX_SUB_KEY_SECONDS = 366 * 24 * 60 * 60;

const LimitUsd = z
  .union([
    z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'a non-negative decimal USD string with at most 6 fraction digits'),
    z
      .number()
      .nonnegative()
      .max(999_999_999)
      .refine((usd) => Math.abs(usd * 1e6 - Math.round(usd * 1e6)) < 1e-3, 'at most 6 fraction digits')
      .transform((usd) => usd.toFixed(6)),
  ])
  .openapi({ example: '2.50', description: "The key's total spend limit in USD: beyond it, 429 `credit_limit_exceeded`." });

export const SubKeyRequest = z
  .object({
    name: z.string().trim().min(1).max(100),
    limit_usd: LimitUsd.optional(),
    expires_in: z.int().min(1).max(MAX_SUB_KEY_SECONDS).optional().openapi({ description: 'Seconds from now; after it the key gets 401 `api_key_expired`.' }),
    allowed_models: z.array(z.string().min(1).max(200)).max(500).optional().openapi({ description: 'Model ids (`openai/gpt-4o-mini`); others get 403 `model_not_allowed`.' }),
    allowed_routes: z.array(RouteClassSchema).min(1).max(ROUTE_CLASSES.length).optional().openapi({ description: 'Route classes; others get 403 `guardrail_blocked`. Free reads are always allowed.' }),
  })
  .openapi('SubKeyRequest');

export const AgentKey = z
  .object({
    id: z.string(),
    name: z.string(),
    hint: z.string(),
    created_at: z.iso.datetime(),
    revoked_at: z.iso.datetime().nullable(),
    expires_at: z.iso.datetime().nullable(),
    limit_usd: UsdString.nullable().openapi({ description: 'The total spend limit.' }),
    daily_limit_usd: UsdString.nullable(),
    monthly_limit_usd: UsdString.nullable(),
    allowed_models: z.array(z.string()).nullable(),
    allowed_routes: z.array(RouteClassSchema).nullable(),
    parent_key_id: z.string().nullable().openapi({ description: 'The key that minted this sub-key; null for the account\'s own keys.' }),
  })
  .openapi('AgentKey');

export const AgentKeyWithSpend = AgentKey.extend({ spent_usd: UsdString.openapi({ description: 'What the key has been charged.' }) }).openapi('AgentKeyWithSpend');

const KeyIdParam = z.object({ key_id: z.string().min(1).max(100).openapi({ param: { name: 'key_id', in: 'path' } }) });

const agent = { tags: ['agent'], security: bearerAuth };

export const createSubKey = createRoute({
  ...agent,
  method: 'post',
  path: '/agent/keys',
  summary: 'Mint a sub-key for a sub-agent, with a spend limit, an expiry and allowed models and routes',
  description: 'Only a key that is not a sub-key, and has no spend limit of its own, may mint (403 `guardrail_blocked`). A sub-key gets no more than its parent: models and routes within the parent\'s, an expiry no later. At most 100 working keys per account.',
  middleware: [apiKey(), x402Payment(), limitBody(64 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(SubKeyRequest) },
  responses: {
    201: jsonResponse(AgentKey.extend({ api_key: z.string().length(48).openapi({ description: 'Shown once.' }) }), 'The sub-key'),
    ...errors(400, 401, 403, 413, 429),
  },
});

export const listKeys = createRoute({
  ...agent,
  method: 'get',
  path: '/agent/keys',
  summary: "The account's keys (no secrets) with what each spent; a sub-key sees only itself",
  middleware: [apiKey(), x402Payment()] as const,
  responses: { 200: jsonResponse(z.object({ data: z.array(AgentKeyWithSpend) }), 'The keys, oldest first'), ...errors(401, 403, 429) },
});

export const revokeKey = createRoute({
  ...agent,
  method: 'delete',
  path: '/agent/keys/{key_id}',
  summary: 'Revoke a key of the account (and the sub-keys it minted) at once',
  description: 'The next request with the key gets 401 `api_key_revoked`. A sub-key may not revoke (403 `guardrail_blocked`).',
  middleware: [apiKey(), x402Payment()] as const,
  request: { params: KeyIdParam },
  responses: { 200: jsonResponse(AgentKey, 'The revoked key'), ...errors(401, 403, 404, 429) },
});
