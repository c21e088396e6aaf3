import { createRoute, z } from '@hono/zod-openapi';
import { adminToken } from '../../middleware/admin-token';
import { bearerAuth, errors, jsonResponse, UsdString } from '../schemas';
import { Suspended } from './suspension.routes';

/**
 * Most accounts on one page, and the default. Each row's balance and suspension are read from its
 * account's Durable Object (one call per row, in parallel): a page stays under the Workers Free
 * plan's 50 subrequests per request.
 */
export const ACCOUNT_PAGE_MAX = 25;
const ACCOUNT_PAGE_DEFAULT = 20;

export const AccountListRow = z
  .object({
    account_id: z.uuid(),
    created_at: z.iso.datetime(),
    claimed: z.boolean(),
    email: z.string().nullable().openapi({ description: "The email bound to the account's approved claim (null: unclaimed, or claimed without an email)." }),
    funded_at: z.iso.datetime().nullable(),
    suspended: Suspended,
    balance_usd: UsdString.nullable().openapi({ description: "From the account's Durable Object; null if it no longer exists (being swept)." }),
    held_usd: UsdString.nullable(),
  })
  .openapi('AccountListRow');

export const searchAccounts = createRoute({
  tags: ['admin'],
  security: bearerAuth,
  method: 'get',
  path: '/admin/accounts',
  summary: 'Accounts newest first, or those matching an account id, a key id, a claimed email or a wallet address',
  middleware: [adminToken()] as const,
  request: {
    query: z.object({
      q: z
        .string()
        .trim()
        .min(1)
        .max(254)
        .optional()
        .openapi({
          description:
            'An account id (UUID), a key id (`key_...`), an email bound to an approved claim, or a wallet address (`0x` and 40 hex digits) that sent a USDC deposit credited to the account. Exact match, any letter case. Without it, every account.',
          example: 'ops@example.com',
        }),
      limit: z.coerce.number().int().min(1).max(ACCOUNT_PAGE_MAX).default(ACCOUNT_PAGE_DEFAULT),
      cursor: z.string().min(1).max(200).optional().openapi({ description: "The previous page's `next_cursor`." }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ data: z.array(AccountListRow), next_cursor: z.string().nullable() }), 'A page of accounts'),
    ...errors(400, 401),
  },
});
