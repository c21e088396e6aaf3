import type { RouteHandler } from '@hono/zod-openapi';
import { holdFailureError } from '../../accounts/failures';
import { createAnonymousAccount } from '../../accounts/anonymous';
import { accountBody } from '../../accounts/wire';
import { registrationInstructions } from '../../accounts/instructions';
import { takeWelcomeCredit } from '../../accounts/welcome';
import { clientIpKey } from '../../client-ip';
import { database } from '../../db';
import { countRegistration } from '../../db/ip-counters';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { formatUsd } from '../../money';
import { fundUrl, publicBaseUrl } from '../../urls';
import { spendPeriods } from '../../../durable-objects/account/periods';
import type { account, register } from './agent.routes';

export const REGISTRATIONS_PER_IP_PER_DAY = 10;

export const registerHandler: RouteHandler<typeof register, AppEnv> = async (c) => {
  const { type } = c.req.valid('json');
  if (type !== 'anonymous') {
    throw new GatewayError('registration_type_not_supported', `Registration type "${type}" is not supported; use "anonymous".`, { param: 'type' });
  }

  const now = Date.now();
  const db = database(c.env);
  const ip = clientIpKey(c);
  const { day, secondsToNextDay } = spendPeriods(now);
  const today = day.slice(2);
  if ((await countRegistration(db, ip, today)) > REGISTRATIONS_PER_IP_PER_DAY) {
    throw new GatewayError('agent_register_rate_limited', `At most ${REGISTRATIONS_PER_IP_PER_DAY} registrations per IP address (an IPv6 /64 counts as one) per day.`, {
      retryAfter: secondsToNextDay,
    });
  }
  const welcomeMicros = await takeWelcomeCredit(c.env, db, ip, today);

  const { accountId, apiKey, claimToken, fundToken, expiresAt } = await createAnonymousAccount(c.env, { now, welcomeMicros });

  const base = publicBaseUrl(c);
  const expiresIso = new Date(expiresAt).toISOString();
  return c.json(
    {
      account_id: accountId,
      api_key: apiKey,
      claim_token: claimToken,
      fund_url: fundUrl(base, fundToken),
      expires_unless_funded_at: expiresIso,
      instructions: registrationInstructions({ base, fundToken, expiresAt: expiresIso, welcomeUsd: welcomeMicros > 0 ? formatUsd(welcomeMicros) : null }),
      ...(welcomeMicros > 0 ? { welcome_credits_usd: formatUsd(welcomeMicros) } : {}),
    },
    201,
  );
};

export const accountHandler: RouteHandler<typeof account, AppEnv> = async (c) => {
  const { account, keyHash } = c.get('caller');
  const result = await account.accountForKey(keyHash);
  if (!result.ok) throw holdFailureError(result);
  return c.json(accountBody(result.account, publicBaseUrl(c)), 200);
};
