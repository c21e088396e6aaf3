import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as admin from '../admin/admin.handlers';
import * as adminRoutes from '../admin/admin.routes';
import * as fundingAdmin from '../admin/funding.handlers';
import * as fundingAdminRoutes from '../admin/funding.routes';
import * as organizations from '../organizations/organizations.handlers';
import * as organizationsRoutes from '../organizations/organizations.routes';
import * as humanAdmin from '../admin/human.handlers';
import * as humanAdminRoutes from '../admin/human.routes';
import * as accountSearch from '../admin/search.handlers';
import * as accountSearchRoutes from '../admin/search.routes';
import * as suspension from '../admin/suspension.handlers';
import * as suspensionRoutes from '../admin/suspension.routes';

/** The operator's routes: the `admin` group of `LAZY_ROUTES`, in its order. */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(accountSearchRoutes.searchAccounts, accountSearch.searchAccountsHandler)
    .openapi(adminRoutes.credit, admin.creditHandler)
    .openapi(adminRoutes.getAccount, admin.getAccountHandler)
    .openapi(adminRoutes.getLedger, admin.getLedgerHandler)
    .openapi(adminRoutes.releaseHold, admin.releaseHoldHandler)
    .openapi(adminRoutes.createKey, admin.createKeyHandler)
    .openapi(adminRoutes.updateKey, admin.updateKeyHandler)
    .openapi(organizationsRoutes.createOrganization, organizations.createOrganizationHandler)
    .openapi(organizationsRoutes.getOrganization, organizations.getOrganizationHandler)
    .openapi(organizationsRoutes.createInvite, organizations.createInviteHandler)
    .openapi(organizationsRoutes.revokeInvite, organizations.revokeInviteHandler)
    .openapi(organizationsRoutes.approveMember, organizations.approveMemberHandler)
    .openapi(organizationsRoutes.removeMember, organizations.removeMemberHandler)
    .openapi(suspensionRoutes.suspend, suspension.suspendHandler)
    .openapi(suspensionRoutes.unsuspend, suspension.unsuspendHandler)
    .openapi(humanAdminRoutes.resetHuman, humanAdmin.resetHumanHandler)
    .openapi(fundingAdminRoutes.unmatchedDeposits, fundingAdmin.unmatchedDepositsHandler)
    .openapi(fundingAdminRoutes.creditDeposit, fundingAdmin.creditDepositHandler);
}
