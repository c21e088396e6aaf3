import type { Context } from 'hono';
import { database } from '../../db';
import { takeSignInChallenge } from '../../db/ip-counters';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';
import { authenticationOptions, relyingParty, verifyAuthentication } from '../../human/passkeys';
import { utcHour } from '../../human/limits';
import { currentSession, startHumanSession } from '../../human/sessions';
import { passkeyHoldsAccount } from '../../human/claims';
import { passkeyById } from '../../db/passkeys';
import { clientIpKey } from '../../client-ip';
import { readJsonPost } from '../json-post';
import { AuthenticationBody, authenticationResponse, OptionsBody } from '../passkey-bodies';
import { csrfToken, pageHeaders } from '../security';
import { SignInPage } from './page';

/** `GET /signin`: the passkey sign-in; a visitor already signed in goes to the dashboard. */
export async function signInPage(c: Context<AppEnv>): Promise<Response> {
  if (await currentSession(c, Date.now())) return c.redirect('/dashboard', 303);
  const notice = c.req.query('signed_out') !== undefined ? 'You are signed out.' : undefined;
  return c.html(<SignInPage csrf={csrfToken(c, '/signin')} notice={notice} />, 200, pageHeaders());
}

/** D3: sign-in challenges one IP may ask for per hour (each is a row until used or swept). */
export const SIGN_IN_CHALLENGES_PER_IP_PER_HOUR = 60;

/** `POST /signin/options` (JSON, CSRF header): a sign-in challenge; 429 past the per-IP hourly limit. */
export async function signInOptions(c: Context<AppEnv>): Promise<Response> {
  await readJsonPost(c, OptionsBody);
  const now = Date.now();
  const { hour, secondsLeft } = utcHour(now);
  if ((await takeSignInChallenge(database(c.env), clientIpKey(c), hour, SIGN_IN_CHALLENGES_PER_IP_PER_HOUR)) === null) {
    throw new GatewayError('rate_limit_exceeded', `At most ${SIGN_IN_CHALLENGES_PER_IP_PER_HOUR} sign-in attempts per hour from one address.`, { retryAfter: secondsLeft });
  }
  return c.json(await authenticationOptions(c.env, relyingParty(c), now), 200, { 'Cache-Control': 'no-store' });
}

/** `POST /signin/verify` (JSON, CSRF header): the passkey's answer; a new session for its account. */
export async function signInVerify(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const body = await readJsonPost(c, AuthenticationBody);
  const verified = await verifyAuthentication(c.env, relyingParty(c), authenticationResponse(body), now);
  if (!verified.ok) throw new GatewayError('invalid_request', verified.message);
  // Checked again once the session exists: a revoke or an operator reset that landed meanwhile wins.
  const db = database(c.env);
  const stillValid = async () => (await passkeyById(db, verified.passkeyId)) !== undefined && (await passkeyHoldsAccount(c.env, verified.accountId, verified.claimId));
  if (!(await startHumanSession(c, verified.accountId, stillValid, now))) throw new GatewayError('invalid_request', 'This passkey no longer opens the account.');
  return c.json({ redirect: '/dashboard' }, 200, { 'Cache-Control': 'no-store' });
}
