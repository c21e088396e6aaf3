import { createRoute, z } from '@hono/zod-openapi';
import { apiKey } from '../../middleware/api-key';
import { x402Payment } from '../../x402/middleware';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { bearerAuth, errors, jsonBody, jsonResponse } from '../schemas';

/** `POST /agent/fund` (spec): whole dollars, 5 to 10,000. */
export const FundRequest = z
  .object({ amount_usd: z.int().min(5).max(10_000).openapi({ example: 10, description: 'Whole US dollars, 5 to 10000.' }) })
  .openapi('FundRequest');

export const FundIntent = z
  .object({
    payment_intent: z.string().openapi({ example: 'pi_3kTq...' }),
    network: z.literal('base'),
    deposit_address: z.string(),
    token: z.literal('usdc'),
    token_contract: z.string().nullable(),
    amount_usdc: z.string().openapi({ example: '10.000437', description: 'Send exactly this amount: it identifies the account.' }),
    amount_usd: z.int(),
    instructions: z.string(),
    expires_at: z.iso.datetime().openapi({ description: 'After this, a transfer of this amount is no longer matched automatically.' }),
    confirmations: z.int().openapi({ description: 'Blocks after the transfer before it is credited.' }),
  })
  .openapi('FundIntent');

export const fund = createRoute({
  method: 'post',
  path: '/agent/fund',
  tags: ['agent'],
  summary: 'Get a USDC-on-Base deposit address and the exact amount that credits this account',
  security: bearerAuth,
  middleware: [apiKey(), x402Payment(), limitBody(4 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(FundRequest) },
  responses: { 200: jsonResponse(FundIntent, 'Where and how much to send'), ...errors(400, 401, 413, 429, 502) },
});
