import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { accountStub } from '../../human/claims';
import { currentSession, endSession, type HumanSession } from '../../human/sessions';
import type { AccountSnapshot } from '../../../durable-objects/account/types';
import { checkCsrf, csrfToken, pageHeaders } from '../security';
import { displayUsd, isoDay } from '../shell';
import { DashboardPage } from './page';

export interface SignedIn {
  session: HumanSession;
  /** The session's account: the only account anything under /dashboard may show or change. */
  account: AccountSnapshot;
}

/**
 * The signed-in human and their account, or the redirect to `/signin` (no session, a revoked or
 * expired one, or an account that no longer exists). Every dashboard handler starts here and
 * acts on `account` only; an id of another account in a URL must answer 404.
 */
export async function signedIn(c: Context<AppEnv>, now: number): Promise<SignedIn | Response> {
  const session = await currentSession(c, now);
  if (!session) return c.redirect('/signin', 303);
  const account = await accountStub(c.env, session.accountId).view();
  if (!account) {
    await endSession(c, now);
    return c.redirect('/signin', 303);
  }
  return { session, account };
}

/** `GET /dashboard`. */
export async function dashboardPage(c: Context<AppEnv>): Promise<Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const { account } = human;
  return c.html(
    <DashboardPage shortId={account.accountId.slice(0, 8)} balanceUsd={displayUsd(account.balanceMicros)} createdAt={isoDay(account.createdAt)} csrf={csrfToken(c, '/dashboard')} />,
    200,
    pageHeaders(),
  );
}

/** `POST /dashboard/signout`: revokes the session at once and clears its cookie. */
export async function signOut(c: Context<AppEnv>): Promise<Response> {
  const form = await c.req.parseBody();
  checkCsrf(c, form.csrf);
  await endSession(c, Date.now());
  return c.redirect('/signin?signed_out=1', 303);
}
