import { createRoute, z } from '@hono/zod-openapi';
import { KiB, limitBody } from '../../middleware/body-limit';
import { parseJsonBody } from '../../middleware/json-body';
import { errors, jsonBody, jsonResponse } from '../schemas';

const ClaimToken = z.string().min(8).openapi({ example: 'act_...', description: 'The claim token `POST /agent/register` returned, or after an operator reset of an account with no address on record, the one-time claim token the operator was given (D36).' });

export const ClaimInitRequest = z
  .object({
    claim_token: ClaimToken,
    email: z.email().max(254).optional().openapi({ description: 'Binds the claim: the human must also enter a code mailed to this address.' }),
  })
  .openapi('ClaimInitRequest');

export const ClaimInit = z
  .object({
    user_code: z.string().regex(/^\d{6}$/).openapi({ example: '042817' }),
    verification_uri: z.url().openapi({ description: 'Where the human enters the code.' }),
    verification_uri_complete: z.url().openapi({ description: 'The same page with the code filled in.' }),
    expires_in: z.int().openapi({ example: 900 }),
    interval: z.int().openapi({ example: 5, description: 'Poll no more often than this, in seconds.' }),
  })
  .openapi('ClaimInit');

export const ClaimPollRequest = z.object({ claim_token: ClaimToken }).openapi('ClaimPollRequest');

export const ClaimPoll = z
  .object({ status: z.literal('claimed'), dashboard_url: z.url() })
  .openapi('ClaimPoll');

export const claimInit = createRoute({
  method: 'post',
  path: '/agent/claim/init',
  tags: ['agent'],
  summary: 'Start handing the account to a human: a code and a link to show them',
  description:
    'Refused (400) once a human holds the account. At most 3 inits per account in any hour: the 4th is 429 `rate_limit_exceeded` with `Retry-After`. After an operator reset (D36) the claim is bound to the reset human\'s verified address (its code is mailed there), or, with none on record, takes only the operator\'s one-time claim token (401 `invalid_claim_token` for the agent\'s own).',
  middleware: [limitBody(4 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(ClaimInitRequest) },
  responses: { 200: jsonResponse(ClaimInit, 'The claim: show the human both the link and the code'), ...errors(400, 401, 413, 429) },
});

export const claimPoll = createRoute({
  method: 'post',
  path: '/agent/claim/poll',
  tags: ['agent'],
  summary: 'Whether the human has claimed the account',
  description:
    'Until the human finishes: 400 `authorization_pending`; sooner than `interval` after the previous poll: 400 `slow_down` with the new `interval` beside `error`; after 900 seconds or a locked code: 400 `expired_token` (init again).',
  middleware: [limitBody(4 * KiB), parseJsonBody()] as const,
  request: { body: jsonBody(ClaimPollRequest) },
  responses: { 200: jsonResponse(ClaimPoll, 'The account is claimed'), ...errors(400, 401, 413) },
});
