import type { AccountDurableObject as AccountImpl } from './account/account';
import { lazyDurableObject, type MethodNames } from './lazy-class';
import type { RouteHealthDurableObject as RouteHealthImpl } from './route-health/route-health';
import type { WebJobDurableObject as WebJobImpl } from './web-job/web-job';

// The Worker's Durable Object classes (docs/contributors/architecture.md, "Startup"): the account's and the web job's import
// drizzle, their tables and migrations, and funding; route health the breaker's rules; each loads with its object's first start.

/** Every method of `AccountDurableObject` a caller or the runtime reaches (checked by a test). */
export const ACCOUNT_METHODS = [
  'create',
  'createOrganization',
  'authenticate',
  'accountForKey',
  'joinOrganization',
  'leaveOrganization',
  'createInvite',
  'revokeInvite',
  'approveMember',
  'removeMember',
  'organizationMembers',
  'organizationInvites',
  'reserveOwnedOrganization',
  'ownedOrganizations',
  'createOwnedOrganization',
  'organizationForOwner',
  'actAsOwner',
  'joinAsMember',
  'leftAsMember',
  'holdsForMember',
  'poolForMember',
  'returnPoolForMember',
  'spendableForMember',
  'memberKeySpend',
  'memberView',
  'memberRequest',
  'authorizeHold',
  'settle',
  'release',
  'releaseByOperator',
  'extendHold',
  'apply',
  'credit',
  'debit',
  'snapshot',
  'view',
  'accountForClaimToken',
  'markClaimed',
  'openClaim',
  'approveClaim',
  'humanHolder',
  'resetHuman',
  'adminView',
  'ledgerPage',
  'chargePage',
  'dailySpend',
  'activityTotals',
  'credits',
  'createKey',
  'updateKey',
  'keys',
  'keysWithUsage',
  'mintSubKey',
  'keysForKey',
  'revokeKeyForKey',
  'ledgerEntries',
  'deleteIfExpired',
  'alarm',
  'suspend',
  'unsuspend',
  'reverseCardPayment',
  'restoreCardPayment',
  'topUpView',
  'enableTopUp',
  'disableTopUp',
  'saveTopUpCard',
  'pruneRequests',
  'requestsPage',
  'requestRecord',
] as const satisfies readonly MethodNames<AccountImpl>[];

/** Every method of `WebJobDurableObject` a caller or the runtime reaches (checked by a test). */
export const WEB_JOB_METHODS = ['start', 'view', 'purge', 'alarm'] as const satisfies readonly MethodNames<WebJobImpl>[];

export const AccountDurableObject = lazyDurableObject(async () => (await import('./account/account')).AccountDurableObject, ACCOUNT_METHODS);
export type AccountDurableObject = AccountImpl;

export const WebJobDurableObject = lazyDurableObject(async () => (await import('./web-job/web-job')).WebJobDurableObject, WEB_JOB_METHODS);
export type WebJobDurableObject = WebJobImpl;

/** Every method of `RouteHealthDurableObject` a caller reaches (checked by a test). */
export const ROUTE_HEALTH_METHODS = ['report', 'view', 'claimProbe'] as const satisfies readonly MethodNames<RouteHealthImpl>[];

export const RouteHealthDurableObject = lazyDurableObject(async () => (await import('./route-health/route-health')).RouteHealthDurableObject, ROUTE_HEALTH_METHODS);
export type RouteHealthDurableObject = RouteHealthImpl;
