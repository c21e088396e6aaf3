import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { database } from '../../db';
import { cardPaymentsOf, depositsOf } from '../../db/funding';
import { accountStub } from '../../human/claims';
import { currentSession, endSession, type HumanSession } from '../../human/sessions';
import type { AccountSnapshot } from '../../../durable-objects/account/types';
import { checkCsrf, csrfToken, pageHeaders } from '../security';
import { isoDay } from '../shell';
import { fundingRows } from './funding';
import { DashboardPage } from './page';
import { spendByDayAndModel, windowStart } from './usage';
import { readFormPost } from '../form-post';
import { publicBaseUrl } from '../../urls';

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

/** The CSRF token of every dashboard form (one cookie for the whole `/dashboard` path). */
/** The signed-in human and the form they posted from our page (CSRF-checked); a redirect to /signin without a session. */
export async function signedInPost(c: Context<AppEnv>): Promise<{ human: SignedIn; form: Record<string, unknown> } | Response> {
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  return { human, form };
}

export function dashboardCsrf(c: Context<AppEnv>): string {
  return csrfToken(c, '/dashboard');
}

/** `GET /dashboard`: the balance, totals today, this month and over 30 days, spend per day by model over 30 days, and the funding history. */
export async function dashboardPage(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const { account } = human;
  const stub = accountStub(c.env, account.accountId);
  const db = database(c.env);
  const [daily, totals, credits, cards, deposits] = await Promise.all([
    stub.dailySpend(windowStart(now)),
    stub.activityTotals(now),
    stub.credits(50),
    cardPaymentsOf(db, account.accountId, 50),
    depositsOf(db, account.accountId, 50),
  ]);
  // Gone between the session check and these reads: as if there were no session.
  if (!totals) return c.redirect('/signin', 303);
  return c.html(
    <DashboardPage
      shortId={account.accountId.slice(0, 8)}
      csrf={dashboardCsrf(c)}
      createdAt={isoDay(account.createdAt)}
      balanceMicros={account.balanceMicros}
      heldMicros={account.heldMicros}
      fundPath={account.fundToken ? `/fund/${account.fundToken}` : null}
      usage={spendByDayAndModel(daily ?? [], now)}
      totals={totals}
      base={publicBaseUrl(c)}
      funding={fundingRows(cards, deposits, credits ?? [])}
      suspended={account.suspended}
    />,
    200,
    pageHeaders(),
  );
}

/** `POST /dashboard/signout`: revokes the session at once and clears its cookie. */
export async function signOut(c: Context<AppEnv>): Promise<Response> {
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  await endSession(c, Date.now());
  return c.redirect('/signin?signed_out=1', 303);
}
