import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { checkUrl, guardOptionsFromEnv, type GuardOptions } from './guard';
import { createRobotsChecker, ROBOTS_USER_AGENT, type RobotsChecker } from './robots';

/** The guard settings for this request: the env's allow-list, and our own hosts never fetched. */
export function requestGuard(c: Context<AppEnv>): GuardOptions {
  // host with its port: locally the gateway shares 127.0.0.1 with allowed test sites on other ports.
  const own = new URL(c.req.url).host;
  const options = guardOptionsFromEnv(c.env, own);
  const publicHost = c.env.PUBLIC_BASE_URL ? new URL(c.env.PUBLIC_BASE_URL).host : undefined;
  return publicHost ? { ...options, ownHosts: [...options.ownHosts, publicHost] } : options;
}

/** Operator-configured domains never fetched (WEB_BLOCKED_DOMAINS, comma-separated; subdomains included). */
export function blockedDomain(hostname: string, env: Env): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const list = (env.WEB_BLOCKED_DOMAINS ?? '').split(',').map((d) => d.trim().toLowerCase()).filter(Boolean);
  return list.find((domain) => host === domain || host.endsWith(`.${domain}`)) ?? null;
}

const robotsCheckers = new Map<string, RobotsChecker>();

/** One robots.txt checker per guard configuration, kept for the isolate's life so its cache is shared. */
export function robotsChecker(guard: GuardOptions): RobotsChecker {
  const key = JSON.stringify([guard.allowHosts, guard.ownHosts]);
  let checker = robotsCheckers.get(key);
  if (!checker) {
    checker = createRobotsChecker({ userAgent: ROBOTS_USER_AGENT, guard });
    robotsCheckers.set(key, checker);
  }
  return checker;
}

/**
 * Everything that must hold before a URL is fetched for a user: not blocklisted (403
 * blocked_domain), past the private-address guard (400, `error.param` `url`), allowed by
 * robots.txt (403 robots_disallowed). All of these cost nothing.
 */
export async function admitUrl(url: string, env: Env, guard: GuardOptions, param = 'url'): Promise<URL> {
  const verdict = await checkUrl(url, guard);
  if (!verdict.ok) throw new GatewayError('invalid_request', `Refused to fetch this URL. ${verdict.reason}`, { param });
  const blocked = blockedDomain(verdict.url.hostname, env);
  if (blocked) throw new GatewayError('blocked_domain', `${blocked} is blocked on this gateway.`);
  if (!(await robotsChecker(guard).allowed(verdict.url.href))) {
    throw new GatewayError('robots_disallowed', `robots.txt of ${verdict.url.origin} disallows fetching ${verdict.url.pathname}.`);
  }
  return verdict.url;
}
