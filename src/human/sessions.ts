import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBase62, sha256Hex } from '../accounts/credentials';
import { database } from '../db';
import { insertSession, liveSession, revokeSession } from '../db/sessions';
import type { AppEnv } from '../env';
import { isHttps } from '../pages/security';

/**
 * A human's signed-in session, started by a claim or a passkey sign-in: a random cookie value
 * (HttpOnly, SameSite=Lax) whose SHA-256 is the server-side record, so the session can be revoked
 * (sign-out) and a stolen database row is no cookie. On an https base the cookie is
 * `__Host-gw_session` (Secure, Path=/, no Domain: no subdomain can set or shadow it); on plain
 * http (local runs) browsers refuse that prefix, so it is `gw_session`. One session belongs to one
 * account; whatever a session reads is that account's.
 */

export const SESSION_COOKIE = 'gw_session';
export const SECURE_SESSION_COOKIE = '__Host-gw_session';
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 86_400_000;
const TOKEN_PATTERN = /^[A-Za-z0-9]{43}$/;

export interface HumanSession {
  accountId: string;
  tokenHash: string;
  expiresAt: number;
}

/** The session cookie's name at this gateway's base. */
export function sessionCookieName(c: Context<AppEnv>): string {
  return isHttps(c) ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
}

/** Starts a session for `accountId` and sets its cookie on the response. */
export async function startSession(c: Context<AppEnv>, accountId: string, now: number): Promise<HumanSession> {
  const token = randomBase62(43);
  const session = { accountId, tokenHash: await sha256Hex(token), expiresAt: now + SESSION_MS };
  await insertSession(database(c.env), { ...session, createdAt: now, revokedAt: null });
  setCookie(c, sessionCookieName(c), token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
  return session;
}

/**
 * Starts a session, then checks `stillValid` (the credential that allowed it still holds the
 * account): when a revoke or an operator reset landed meanwhile, the session is revoked again
 * and null returned. A reset removes sessions after it takes the account, so a session inserted
 * before that removal is removed by it, and one inserted after fails this check.
 */
export async function startHumanSession(c: Context<AppEnv>, accountId: string, stillValid: () => Promise<boolean>, now: number): Promise<HumanSession | null> {
  const session = await startSession(c, accountId, now);
  if (await stillValid()) return session;
  await revokeSession(database(c.env), session.tokenHash, now);
  deleteCookie(c, sessionCookieName(c), { path: '/', secure: isHttps(c) });
  return null;
}

/** The request's live session; null without a cookie, or for a revoked, expired or unknown one. */
export async function currentSession(c: Context<AppEnv>, now: number): Promise<HumanSession | null> {
  const token = getCookie(c, sessionCookieName(c));
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const row = await liveSession(database(c.env), await sha256Hex(token), now);
  return row ? { accountId: row.accountId, tokenHash: row.tokenHash, expiresAt: row.expiresAt } : null;
}

/** Revokes the request's session (if any) and clears its cookie. */
export async function endSession(c: Context<AppEnv>, now: number): Promise<void> {
  const token = getCookie(c, sessionCookieName(c));
  if (token && TOKEN_PATTERN.test(token)) await revokeSession(database(c.env), await sha256Hex(token), now);
  deleteCookie(c, sessionCookieName(c), { path: '/', secure: isHttps(c) });
}
