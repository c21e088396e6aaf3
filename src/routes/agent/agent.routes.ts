import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { Account, bearerAuth, errors, jsonBody, jsonResponse, UsdString } from '../schemas';

export const RegisterRequest = z
  .object({ type: z.string().openapi({ example: 'anonymous', description: 'Only `anonymous` is supported.' }) })
  .openapi('RegisterRequest');

export const Registration = z
  .object({
    account_id: z.uuid(),
    api_key: z.string().length(48).openapi({ description: 'Shown once.' }),
    claim_token: z.string().startsWith('act_').openapi({ description: 'Shown once; the only recovery path.' }),
    fund_url: z.url(),
    expires_unless_funded_at: z.iso.datetime(),
    instructions: z.string(),
    welcome_credits_usd: UsdString.optional(),
  })
  .openapi('Registration');

export const register = createRoute({
  method: 'post',
  path: '/agent/register',
  tags: ['agent'],
  summary: 'Register an anonymous agent account and get an API key',
  middleware: [limitBody(16 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(RegisterRequest) },
  responses: { 201: jsonResponse(Registration, 'The new account'), ...errors(400, 413, 429) },
});

export const account = createRoute({
  method: 'get',
  path: '/agent/account',
  tags: ['agent'],
  summary: "The calling key's account: balance, claim state, funding",
  security: bearerAuth,
  middleware: [apiKey(), x402Payment()] as const,
  responses: { 200: jsonResponse(Account, 'The account'), ...errors(401, 429) },
});
