import type { Context } from 'hono';
import { database } from '../../db';
import { deletePasskey, passkeysOf } from '../../db/passkeys';
import { liveSessionsOf, revokeSessionOf, revokeSessionsOf } from '../../db/sessions';
import type { AppEnv } from '../../env';
import { endSession } from '../../human/sessions';
import { readFormPost } from '../form-post';
import { checkCsrf, pageHeaders } from '../security';
import { dashboardCsrf, signedIn } from './handlers';
import { SecurityPage } from './security-page';

/**
 * The security page: the account's passkeys and live sessions, each revocable, and sign-out
 * everywhere. Everything acts on the session's account only (a passkey or session id of another
 * account matches nothing), and every post is CSRF-checked before anything changes.
 */

const SESSION_ID = /^[0-9a-f]{16}$/;
const NOTICES: Record<string, string> = {
  'passkey-removed': 'The passkey was removed: it no longer signs in.',
  'session-ended': 'The session was signed out.',
};

/** `GET /dashboard/security`. */
export async function securityPage(c: Context<AppEnv>, problem?: string): Promise<Response> {
  const now = Date.now();
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const db = database(c.env);
  const accountId = human.account.accountId;
  const [passkeys, sessions] = await Promise.all([passkeysOf(db, accountId), liveSessionsOf(db, accountId, now)]);
  return c.html(
    <SecurityPage
      shortId={accountId.slice(0, 8)}
      csrf={dashboardCsrf(c)}
      passkeys={passkeys.sort((a, b) => b.createdAt - a.createdAt).map((p) => ({ id: p.id, createdAt: p.createdAt, lastUsedAt: p.lastUsedAt }))}
      sessions={sessions.map((s) => ({ id: s.tokenHash.slice(0, 16), createdAt: s.createdAt, expiresAt: s.expiresAt, current: s.tokenHash === human.session.tokenHash }))}
      notice={problem ? undefined : NOTICES[c.req.query('notice') ?? '']}
      problem={problem}
    />,
    problem ? 400 : 200,
    pageHeaders(),
  );
}

/** `POST /dashboard/security/passkeys/revoke`: removes one of the account's passkeys. */
export async function revokePasskey(c: Context<AppEnv>): Promise<Response> {
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const human = await signedIn(c, Date.now());
  if (human instanceof Response) return human;
  const id = typeof form.passkey === 'string' ? form.passkey : '';
  if (!(await deletePasskey(database(c.env), human.account.accountId, id))) return securityPage(c, 'This account has no such passkey.');
  return c.redirect('/dashboard/security?notice=passkey-removed', 303);
}

/** `POST /dashboard/security/sessions/revoke`: signs one session out (this browser's too, then to /signin). */
export async function revokeSession(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  const id = typeof form.session === 'string' ? form.session : '';
  if (!SESSION_ID.test(id) || !(await revokeSessionOf(database(c.env), human.account.accountId, id, now))) return securityPage(c, 'This account has no such session.');
  if (human.session.tokenHash.startsWith(id)) {
    await endSession(c, now);
    return c.redirect('/signin?signed_out=1', 303);
  }
  return c.redirect('/dashboard/security?notice=session-ended', 303);
}

/** `POST /dashboard/security/signout-everywhere`: revokes every session of the account, this one included. */
export async function signOutEverywhere(c: Context<AppEnv>): Promise<Response> {
  const now = Date.now();
  const form = await readFormPost(c);
  checkCsrf(c, form.csrf);
  const human = await signedIn(c, now);
  if (human instanceof Response) return human;
  await revokeSessionsOf(database(c.env), human.account.accountId, now);
  await endSession(c, now);
  return c.redirect('/signin?signed_out=1', 303);
}
