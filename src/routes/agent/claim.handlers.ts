import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { emailSender } from '../../human/email';
import { accountOfClaimToken, CLAIM_LIFETIME_SECONDS, openClaim, pollClaim, type OpenClaimOutcome, type PollOutcome } from '../../human/claims';
import { CLAIM_INITS_PER_HOUR } from '../../../durable-objects/account/claim';
import { publicBaseUrl } from '../../urls';
import type { AccountSnapshot } from '../../../durable-objects/account/types';
import type { claimInit, claimPoll } from './claim.routes';

async function claimedAccount(env: Env, token: string): Promise<AccountSnapshot> {
  const account = await accountOfClaimToken(env, token);
  if (!account) throw new GatewayError('invalid_claim_token', 'The claim token is unknown or wrong.');
  return account;
}

export const claimInitHandler: RouteHandler<typeof claimInit, AppEnv> = async (c) => {
  const { claim_token, email } = c.req.valid('json');
  const account = await claimedAccount(c.env, claim_token);
  const canMail = emailSender(c.env, publicBaseUrl(c)) !== undefined;
  if (email && !canMail) {
    throw new GatewayError('invalid_request', 'This gateway cannot send email: claim without an email address.', { param: 'email' });
  }
  const outcome = await openClaim(c.env, account.accountId, claim_token, email?.trim().toLowerCase() ?? null, Date.now());
  if (!outcome.ok) throw initRefusal(outcome);
  const { claim, userCode } = outcome.opened;
  // After a reset the claim is bound to the address on record (D36); a gateway that lost its sender cannot finish it.
  if (claim.email !== null && !canMail) throw new GatewayError('invalid_request', 'This account can be claimed again only by a code mailed to its owner, and this gateway cannot send email now.');
  const uri = `${publicBaseUrl(c)}/claim/${claim.id}`;
  return c.json(
    {
      user_code: userCode,
      verification_uri: uri,
      verification_uri_complete: `${uri}?code=${userCode}`,
      expires_in: CLAIM_LIFETIME_SECONDS,
      interval: claim.intervalSeconds,
    },
    200,
  );
};

/** Why the account's Durable Object refused a new claim. */
function initRefusal(outcome: Exclude<OpenClaimOutcome, { ok: true }>): GatewayError {
  switch (outcome.reason) {
    case 'claimed':
      return new GatewayError('invalid_request', 'This account has already been claimed by a human; it cannot be claimed again.');
    case 'rate_limited':
      return new GatewayError('rate_limit_exceeded', `At most ${CLAIM_INITS_PER_HOUR} claims can be started per account in an hour.`, { retryAfter: outcome.retryAfterSeconds });
    case 'no_account':
      return new GatewayError('invalid_claim_token', 'The claim token is unknown or wrong.');
    case 'needs_operator_token':
      return new GatewayError(
        'invalid_claim_token',
        "An operator reset this account's human: it can be claimed again only with the one-time claim token the operator was given, not with the agent's claim token.",
      );
    case 'email_not_on_record':
      return new GatewayError(
        'invalid_request',
        "An operator reset this account's human: a new claim goes to the owner's verified address on record; leave email out (or give that address).",
        { param: 'email' },
      );
  }
}

export const claimPollHandler: RouteHandler<typeof claimPoll, AppEnv> = async (c) => {
  const { claim_token } = c.req.valid('json');
  const account = await claimedAccount(c.env, claim_token);
  const outcome = await pollClaim(c.env, account, Date.now());
  if (outcome.state === 'claimed') return c.json({ status: 'claimed' as const, dashboard_url: `${publicBaseUrl(c)}/dashboard` }, 200);
  throw pollError(outcome);
};

/** The spec's non-terminal poll answers (RFC 8628 section 3.5; D13, D18). */
function pollError(outcome: Exclude<PollOutcome, { state: 'claimed' }>): GatewayError {
  switch (outcome.state) {
    case 'pending':
      return new GatewayError('authorization_pending', `The human has not finished yet; poll again in ${outcome.intervalSeconds} seconds.`);
    case 'slow_down':
      return new GatewayError('slow_down', `Polled too soon; poll at most every ${outcome.intervalSeconds} seconds.`, { extra: { interval: outcome.intervalSeconds } });
    case 'expired': {
      const why = {
        expired: 'The code expired.',
        locked: 'The code was locked after too many wrong attempts.',
        superseded: 'A newer code replaced this one.',
        none: 'No claim was started.',
      }[outcome.why];
      return new GatewayError('expired_token', `${why} Call POST /agent/claim/init again for a new code and link.`);
    }
  }
}
