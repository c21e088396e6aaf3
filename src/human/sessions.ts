import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomBase62, sha256Hex } from '../accounts/credentials';
import { database } from '../db';
import { insertSession, liveSession, revokeSession } from '../db/sessions';
import type { AppEnv } from '../env';
import { isHttps } from '../pages/security';

/**
 * A human's signed-in session, started by a claim or a passkey sign-in: a random cookie value
 * (HttpOnly, SameSite=Lax, Secure on an https base) whose SHA-256 is the server-side record, so
 * the session can be revoked (sign-out) and a stolen database row is no cookie. One session
 * belongs to one account; whatever a session reads is that account's.
 */

export const SESSION_COOKIE = 'gw_session';
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 86_400_000;
const TOKEN_PATTERN = /^[A-Za-z0-9]{43}$/;

export interface HumanSession {
  accountId: string;
  tokenHash: string;
  expiresAt: number;
}

/** Starts a session for `accountId` and sets its cookie on the response. */
export async function startSession(c: Context<AppEnv>, accountId: string, now: number): Promise<HumanSession> {
  const token = randomBase62(43);
  const session = { accountId, tokenHash: await sha256Hex(token), expiresAt: now + SESSION_MS };
  await insertSession(database(c.env), { ...session, createdAt: now, revokedAt: null });
  setCookie(c, SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'Lax', secure: isHttps(c), maxAge: SESSION_MS / 1000 });
  return session;
}

/** The request's live session; null without a cookie, or for a revoked, expired or unknown one. */
export async function currentSession(c: Context<AppEnv>, now: number): Promise<HumanSession | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const row = await liveSession(database(c.env), await sha256Hex(token), now);
  return row ? { accountId: row.accountId, tokenHash: row.tokenHash, expiresAt: row.expiresAt } : null;
}

/** Revokes the request's session (if any) and clears its cookie. */
export async function endSession(c: Context<AppEnv>, now: number): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE);
  if (token && TOKEN_PATTERN.test(token)) await revokeSession(database(c.env), await sha256Hex(token), now);
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isHttps(c) });
}
