import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { PRODUCTS, type ProductName } from '../../products';
import type { BilledProduct, Method } from '../../products/contract';

/** A group's module: registers its routes (schemas, validators, handlers) on an app, in `LAZY_ROUTES` order. */
export interface RouteGroup {
  register(app: OpenAPIHono<AppEnv>): void;
}

/** The route groups that are not billed products: their modules, and their rows of `LAZY_ROUTES`. */
const OTHER_GROUPS = {
  media: () => import('./media'),
  account: () => import('./account'),
  admin: () => import('./admin'),
} satisfies Record<string, () => Promise<RouteGroup>>;

export type GroupName = ProductName | keyof typeof OTHER_GROUPS;

/** Every group, in route-table order: the billed products (`PRODUCTS`), then the others. */
export const GROUP_NAMES = [...Object.keys(PRODUCTS), ...Object.keys(OTHER_GROUPS)] as GroupName[];

const isProduct = (group: GroupName): group is ProductName => Object.hasOwn(PRODUCTS, group);

/**
 * A group's module, built on first use (docs/contributors/architecture.md, "Startup"): zod, its
 * schemas, OpenAPI definitions and handlers are loaded by the first request that needs one of its
 * routes, not at startup. Each billed product is a group.
 */
export function loadGroup(group: GroupName): Promise<RouteGroup> {
  return isProduct(group) ? PRODUCTS[group].load() : OTHER_GROUPS[group]();
}

/**
 * The lazily built routes as the app matches them: group, method, OpenAPI path. The products' rows
 * come from `PRODUCTS`; the others are written here. A test checks it against what each group
 * registers, so a route added to a group without a line here (or in its product's paths) fails.
 */
export const LAZY_ROUTES: readonly (readonly [GroupName, Method, string])[] = [
  ...(Object.entries(PRODUCTS) as [ProductName, BilledProduct][]).flatMap(([name, { routes }]) => routes.map(({ method, path }) => [name, method, path] as const)),
  ['media', 'get', '/v1/generations'],
  ['media', 'post', '/v1/uploads'],
  ['media', 'get', '/v1/uploads'],
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
