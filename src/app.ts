import { OpenAPIHono } from '@hono/zod-openapi';
import { version } from '../package.json';
import type { AppEnv } from './env';
import { GatewayError, renderError, validationError } from './errors';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { refuseSelfFetch } from './middleware/self-fetch';
import * as admin from './routes/admin/admin.handlers';
import * as imageJobs from './routes/media/image-jobs.handlers';
import * as images from './routes/media/images.handlers';
import * as speech from './routes/media/speech.handlers';
import * as speechRoutes from './routes/media/speech.routes';
import * as uploadsApi from './routes/media/uploads.handlers';
import * as uploadsRoutes from './routes/media/uploads.routes';
import * as videos from './routes/media/videos.handlers';
import * as videosRoutes from './routes/media/videos.routes';
import * as imagesRoutes from './routes/media/images.routes';
import * as adminRoutes from './routes/admin/admin.routes';
import * as fundingAdmin from './routes/admin/funding.handlers';
import * as fundingAdminRoutes from './routes/admin/funding.routes';
import * as suspension from './routes/admin/suspension.handlers';
import * as suspensionRoutes from './routes/admin/suspension.routes';
import * as humanAdmin from './routes/admin/human.handlers';
import * as accountSearch from './routes/admin/search.handlers';
import * as accountSearchRoutes from './routes/admin/search.routes';
import * as humanAdminRoutes from './routes/admin/human.routes';
import * as agent from './routes/agent/agent.handlers';
import * as agentRoutes from './routes/agent/agent.routes';
import * as agentKeys from './routes/agent/keys.handlers';
import * as agentKeysRoutes from './routes/agent/keys.routes';
import * as claim from './routes/agent/claim.handlers';
import * as claimRoutes from './routes/agent/claim.routes';
import * as organizations from './routes/organizations/organizations.handlers';
import * as organizationsRoutes from './routes/organizations/organizations.routes';
import * as chat from './routes/chat/chat.handlers';
import * as fund from './routes/funding/fund.handlers';
import * as fundRoutes from './routes/funding/fund.routes';
import * as chatRoutes from './routes/chat/chat.routes';
import * as discovery from './routes/discovery/discovery.handlers';
import * as discoveryRoutes from './routes/discovery/discovery.routes';
import * as models from './routes/models/models.handlers';
import * as modelsRoutes from './routes/models/models.routes';
import { serveFile } from './routes/files';
import { STRIPE_WEBHOOK_MAX_BYTES, stripeWebhook } from './routes/funding/stripe-webhook';
import { limitBody, MiB } from './middleware/body-limit';
import { renderPageError } from './pages/error-page';
import { pagesApp } from './pages/routes';
import * as jobs from './routes/web/jobs.handlers';
import * as jobsRoutes from './routes/web/jobs.routes';
import * as scrape from './routes/web/scrape.handlers';
import * as scrapeRoutes from './routes/web/scrape.routes';
import * as quoteApi from './routes/quote/quote.handlers';
import * as quoteRoutes from './routes/quote/quote.routes';
import * as requestsApi from './routes/requests/requests.handlers';
import * as requestsRoutes from './routes/requests/requests.routes';
import { mcpHandler, withMcpChallenge } from './routes/mcp/mcp.handlers';
import { keylessX402, X402_PREFIX } from './x402/keyless';
import { apiKey } from './middleware/api-key';

/** An MCP request carries one tool call's arguments: as large as the largest route body it forwards (extract, 1 MiB). */
const MCP_MAX_BYTES = 1 * MiB;

/** Builds the gateway. Each route's path, middleware and schemas are in its `*.routes.ts`. */
export function createApp() {
  const app = new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });

  app.use('*', requestId(), requestLog(), refuseSelfFetch());

  // The route table.
  app
    .openapi(discoveryRoutes.health, discovery.healthHandler)
    .openapi(discoveryRoutes.protectedResource, discovery.protectedResourceHandler)
    .openapi(discoveryRoutes.authMd, discovery.authMdHandler)
    .openapi(discoveryRoutes.llmsTxt, discovery.llmsTxtHandler)
    .openapi(modelsRoutes.listModels, models.listModelsHandler)
    .openapi(chatRoutes.chatCompletions, chat.chatCompletionsHandler)
    .openapi(imagesRoutes.generateImages, images.generateImagesHandler)
    .openapi(imagesRoutes.submitImageJob, imageJobs.submitImageJobHandler)
    .openapi(imagesRoutes.getImageJob, imageJobs.getImageJobHandler)
    .openapi(imagesRoutes.listGenerations, images.listGenerationsHandler)
    .openapi(speechRoutes.speech, speech.speechHandler)
    .openapi(videosRoutes.submitVideo, videos.submitVideoHandler)
    .openapi(videosRoutes.getVideo, videos.getVideoHandler)
    .openapi(uploadsRoutes.createUpload, uploadsApi.createUploadHandler)
    .openapi(uploadsRoutes.listUploads, uploadsApi.listUploadsHandler)
    .openapi(scrapeRoutes.scrape, scrape.scrapeHandler)
    .openapi(jobsRoutes.crawl, jobs.crawlHandler)
    .openapi(jobsRoutes.getCrawl, jobs.getCrawlHandler)
    .openapi(jobsRoutes.extract, jobs.extractHandler)
    .openapi(jobsRoutes.listScrapers, jobs.listScrapersHandler)
    .openapi(jobsRoutes.getExtract, jobs.getExtractHandler)
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
    .openapi(fundRoutes.fund, fund.fundHandler)
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
    .openapi(fundingAdminRoutes.creditDeposit, fundingAdmin.creditDepositHandler)
    .get('/files/*', serveFile)
    .post('/webhooks/stripe', limitBody(STRIPE_WEBHOOK_MAX_BYTES), stripeWebhook)
    .put('/uploads/:token', uploadsApi.putUpload)
    // Keyless x402 (D23): the /v1 routes, paid per request by an agent with a wallet and no key.
    .all(`${X402_PREFIX}/v1/*`, limitBody(32 * MiB), keylessX402(app))
    .on(['GET', 'POST', 'DELETE'], '/mcp', withMcpChallenge(), apiKey(), limitBody(MCP_MAX_BYTES), mcpHandler(app))
    .route('/', pagesApp());

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key `ak-...` (48 characters); for /admin, the operator token.',
  });
  app.doc31('/openapi.json', (c) => ({
    openapi: '3.1.0',
    info: {
      title: 'AI Gateway',
      version: '1.0.0',
      description: `One API key and one prepaid USD balance for chat, media and web context. Gateway build ${version}.`,
    },
    servers: [{ url: c.env.PUBLIC_BASE_URL || new URL(c.req.url).origin }],
  }));

  // A browser that opens an unknown address gets a page; API clients the envelope.
  app.notFound((c) => renderPageError(new GatewayError('not_found', `No route for ${c.req.method} ${c.req.path}.`), c));
  app.onError(renderError);
  return app;
}
