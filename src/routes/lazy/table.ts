import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';

/** A group's module: registers its routes (schemas, validators, handlers) on an app, in `LAZY_ROUTES` order. */
export interface RouteGroup {
  register(app: OpenAPIHono<AppEnv>): void;
}

/**
 * The route groups built on first use (docs/contributors/architecture.md, "Startup"): zod, their schemas, OpenAPI definitions
 * and handlers' modules are loaded by the first request that needs one of their routes, not at
 * startup. Their order is the route table's, which `/openapi.json` keeps.
 */
export const GROUPS = {
  chat: () => import('./chat'),
  media: () => import('./media'),
  web: () => import('./web'),
  account: () => import('./account'),
  admin: () => import('./admin'),
} satisfies Record<string, () => Promise<RouteGroup>>;

export type GroupName = keyof typeof GROUPS;
type Method = 'get' | 'post' | 'patch' | 'delete';

/**
 * The lazily built routes as the app matches them: group, method, OpenAPI path. A test checks it
 * against what each group registers, so a route added to a group without a line here fails.
 */
export const LAZY_ROUTES: readonly (readonly [GroupName, Method, string])[] = [
  ['chat', 'post', '/v1/chat/completions'],
  ['media', 'post', '/v1/images/generations'],
  ['media', 'post', '/v1/images/jobs'],
  ['media', 'get', '/v1/images/jobs/{id}'],
  ['media', 'get', '/v1/generations'],
  ['media', 'post', '/v1/audio/speech'],
  ['media', 'post', '/v1/videos/generations'],
  ['media', 'get', '/v1/videos/generations/{id}'],
  ['media', 'post', '/v1/uploads'],
  ['media', 'get', '/v1/uploads'],
  ['web', 'post', '/v1/scrape'],
  ['web', 'post', '/v1/crawl'],
  ['web', 'get', '/v1/crawl/{id}'],
  ['web', 'post', '/v1/extract'],
  ['web', 'get', '/v1/extract/scrapers'],
  ['web', 'get', '/v1/extract/{id}'],
  ['account', 'post', '/v1/quote'],
  ['account', 'get', '/v1/requests/{request_id}'],
  ['account', 'post', '/agent/register'],
  ['account', 'get', '/agent/account'],
  ['account', 'post', '/agent/keys'],
  ['account', 'get', '/agent/keys'],
  ['account', 'delete', '/agent/keys/{key_id}'],
  ['account', 'post', '/agent/org/join'],
  ['account', 'post', '/agent/org/leave'],
  ['account', 'post', '/agent/claim/init'],
  ['account', 'post', '/agent/claim/poll'],
  ['account', 'post', '/agent/fund'],
  ['admin', 'get', '/admin/accounts'],
  ['admin', 'post', '/admin/accounts/{account_id}/credits'],
  ['admin', 'get', '/admin/accounts/{account_id}'],
  ['admin', 'get', '/admin/accounts/{account_id}/ledger'],
  ['admin', 'post', '/admin/accounts/{account_id}/holds/{hold_id}/release'],
  ['admin', 'post', '/admin/accounts/{account_id}/keys'],
  ['admin', 'patch', '/admin/accounts/{account_id}/keys/{key_id}'],
  ['admin', 'post', '/admin/organizations'],
  ['admin', 'get', '/admin/organizations/{organization_id}'],
  ['admin', 'post', '/admin/organizations/{organization_id}/invites'],
  ['admin', 'delete', '/admin/organizations/{organization_id}/invites/{invite_id}'],
  ['admin', 'post', '/admin/organizations/{organization_id}/members/{account_id}/approve'],
  ['admin', 'post', '/admin/organizations/{organization_id}/members/{account_id}/remove'],
  ['admin', 'post', '/admin/accounts/{account_id}/suspend'],
  ['admin', 'post', '/admin/accounts/{account_id}/unsuspend'],
  ['admin', 'post', '/admin/accounts/{account_id}/human/reset'],
  ['admin', 'get', '/admin/deposits/unmatched'],
  ['admin', 'post', '/admin/deposits/{deposit_id}/credit'],
];
