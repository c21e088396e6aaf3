import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as agent from '../agent/agent.handlers';
import * as agentRoutes from '../agent/agent.routes';
import * as claim from '../agent/claim.handlers';
import * as claimRoutes from '../agent/claim.routes';
import * as agentKeys from '../agent/keys.handlers';
import * as agentKeysRoutes from '../agent/keys.routes';
import * as fund from '../funding/fund.handlers';
import * as organizations from '../organizations/organizations.handlers';
import * as organizationsRoutes from '../organizations/organizations.routes';
import * as fundRoutes from '../funding/fund.routes';
import * as quoteApi from '../quote/quote.handlers';
import * as quoteRoutes from '../quote/quote.routes';
import * as requestsApi from '../requests/requests.handlers';
import * as requestsRoutes from '../requests/requests.routes';

/** Quotes, request records and an agent's own account, keys, organization, claim and funding: the `account` group of `LAZY_ROUTES`, in its order. */
export function register(app: OpenAPIHono<AppEnv>) {
  app
    .openapi(quoteRoutes.quote, quoteApi.quoteHandler)
    .openapi(requestsRoutes.getRequest, requestsApi.getRequestHandler)
    .openapi(agentRoutes.register, agent.registerHandler)
    .openapi(agentRoutes.account, agent.accountHandler)
    .openapi(agentKeysRoutes.createSubKey, agentKeys.createSubKeyHandler)
    .openapi(agentKeysRoutes.listKeys, agentKeys.listKeysHandler)
    .openapi(agentKeysRoutes.revokeKey, agentKeys.revokeKeyHandler)
    .openapi(organizationsRoutes.joinOrganization, organizations.joinOrganizationHandler)
    .openapi(organizationsRoutes.leaveOrganization, organizations.leaveOrganizationHandler)
    .openapi(claimRoutes.claimInit, claim.claimInitHandler)
    .openapi(claimRoutes.claimPoll, claim.claimPollHandler)
    .openapi(fundRoutes.fund, fund.fundHandler);
}
