import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { hashesEqual, randomBase62 } from '../accounts/credentials';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { publicBaseUrl } from '../urls';

/**
 * Headers of every page a person opens: a strict Content-Security-Policy (our own script and
 * style only, nothing inline, no frames), no referrer (a fund link is a capability and must not
 * leak to the sites a page leads to), and no caching of a page that shows a balance.
 */
export function pageHeaders(formTargets: string[] = []): Record<string, string> {
  const formAction = ["'self'", ...formTargets].join(' ');
  return {
    'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action ${formAction}; base-uri 'none'; frame-ancestors 'none'`,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };
}

const CSRF_COOKIE = 'csrf';
const CSRF_MAX_AGE_SECONDS = 2 * 60 * 60;

/**
 * The CSRF token of a page's forms (double submit): a random value in an HttpOnly, SameSite=Strict
 * cookie scoped to the page's path, repeated in each form. Reuses the visitor's cookie if it has one.
 */
export function csrfToken(c: Context<AppEnv>, path: string): string {
  const existing = getCookie(c, CSRF_COOKIE);
  const token = existing && /^[A-Za-z0-9]{32}$/.test(existing) ? existing : randomBase62(32);
  setCookie(c, CSRF_COOKIE, token, { path, httpOnly: true, sameSite: 'Strict', secure: isHttps(c), maxAge: CSRF_MAX_AGE_SECONDS });
  return token;
}

/**
 * Refuses a form post that does not come from our own page: its Origin must be ours (browsers send
 * it on every POST), the browser must not call it cross-origin (`Sec-Fetch-Site`), and its token
 * must equal the cookie's, compared in constant time. Our pages are sent with
 * `Referrer-Policy: no-referrer`, under which browsers send `Origin: null` on their own form posts;
 * for those, `Sec-Fetch-Site` (which no page can set) says whether the post came from our origin.
 */
export function checkCsrf(c: Context<AppEnv>, submitted: unknown): void {
  const origin = c.req.header('Origin');
  const site = c.req.header('Sec-Fetch-Site');
  const ours = [new URL(c.req.url).origin, new URL(publicBaseUrl(c)).origin];
  const foreign = (origin !== undefined && origin !== 'null' && !ours.includes(origin)) || (site !== undefined && site !== 'same-origin');
  const cookie = getCookie(c, CSRF_COOKIE);
  const valid = typeof submitted === 'string' && cookie !== undefined && hashesEqual(submitted, cookie);
  if (foreign || !valid) {
    throw new GatewayError('invalid_request', 'This form has expired or did not come from this page; reload the page and try again.', { param: 'csrf' });
  }
}

/** Whether the gateway is reached over https (its public base), so cookies can be Secure. */
export function isHttps(c: Context<AppEnv>): boolean {
  return new URL(publicBaseUrl(c)).protocol === 'https:';
}
