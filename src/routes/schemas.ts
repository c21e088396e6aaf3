import { z } from '@hono/zod-openapi';

/** The spec's error envelope, referenced by every route's error responses. */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: 'invalid_request' }),
      message: z.string(),
      type: z.enum([
        'invalid_request_error',
        'authentication_error',
        'authorization_error',
        'insufficient_credits_error',
        'rate_limit_error',
        'api_error',
      ]),
      param: z.string().optional(),
      funding: z
        .object({
          fund_url: z.url().nullable(),
          usdc: z.object({ network: z.literal('base'), contract: z.string(), fund_endpoint: z.url() }).nullable(),
          x402: z.boolean(),
          available_usd: z.string(),
          required_usd: z.string(),
          organization_id: z.uuid().optional().openapi({ description: 'D29: the balance short is this organization\'s; fund_url is its fund link' }),
        })
        .optional()
        .openapi({ description: 'On a 402 insufficient_credits: how the account can pay, and what it has and needs' }),
    }),
  })
  .openapi('Error');

export const UsdString = z.string().regex(/^-?\d+\.\d{6}$/).openapi({ example: '4.998731' });

export const Account = z
  .object({
    account_id: z.uuid(),
    balance_usd: UsdString,
    held_usd: UsdString.openapi({ description: 'Set aside for requests in flight.' }),
    claimed: z.boolean(),
    fund_url: z.url().nullable(),
    expires_unless_funded_at: z.iso.datetime().nullable(),
    unclaimed_funding_remaining_usd: UsdString.nullable(),
    created_at: z.iso.datetime(),
    organization: z
      .object({
        id: z.uuid(),
        name: z.string().nullable(),
        status: z.enum(['pending', 'active']),
        member_cap_usd: UsdString.nullable().openapi({ description: 'Per UTC calendar month; null for no cap.' }),
        spent_this_month_usd: UsdString,
      })
      .optional()
      .openapi({ description: 'D29: the organization a member account spends from (absent for others).' }),
  })
  .openapi('Account');

/** Error responses for the OpenAPI document, by status. */
export function errors(...statuses: (400 | 401 | 402 | 403 | 404 | 413 | 429 | 502 | 503)[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: 'Error', content: { 'application/json': { schema: ErrorEnvelope } } }]),
  );
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { content: { 'application/json': { schema } }, required: true } as const;
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { 'application/json': { schema } } } as const;
}

export const bearerAuth = [{ bearer: [] }];
