import type { Context } from 'hono';
import type { AppEnv } from './env';

/** The absolute base for links the gateway hands out: `PUBLIC_BASE_URL`, else the request's origin. */
export function publicBaseUrl(c: Context<AppEnv>): string {
  return (c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin).replace(/\/+$/, '');
}

/** The no-login fund page of an account: a capability link (D22), its token not the account id. */
export function fundUrl(base: string, fundToken: string): string {
  return `${base}/fund/${fundToken}`;
}
