import type { AppEnv } from './env';
import { renderError } from './routes/error-response';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { refuseSelfFetch } from './middleware/self-fetch';
import { Hono } from 'hono';
import { serveFile } from './routes/files';
import { STRIPE_WEBHOOK_MAX_BYTES } from './routes/funding/stripe-webhook-limit';
import { lazyRoutes, warmChatAfterFirstRequest } from './routes/lazy';
import { lazy } from './routes/lazy/handler';
import { mcpHandler, withMcpChallenge } from './routes/mcp/mcp.handlers';
import { registerPlainRoutes } from './routes/plain';
import { limitBody, MiB } from './middleware/body-limit';
import { pagesApp } from './pages/routes';
import { keylessX402, X402_PREFIX } from './x402/keyless';
import { apiKey, apiKeyAsBearer } from './middleware/api-key';
import { x402Payment } from './x402/middleware';

/** An MCP request carries one tool call's arguments: as large as the largest route body it forwards (extract, 1 MiB). */
const MCP_MAX_BYTES = 1 * MiB;

/**
 * Builds the gateway. Each route's path, middleware and schemas are in its `*.routes.ts`. Startup
 * builds no zod schema: discovery and models are plain routes, every other API route is a stub until
 * the first request of its group (`src/routes/lazy/table.ts`, docs/contributors/architecture.md, "Startup").
 */
export function createApp() {
  const app = new Hono<AppEnv>();

  app.use('*', warmChatAfterFirstRequest(), requestId(), requestLog(), refuseSelfFetch());

  // The route table: discovery and models, then the lazily built groups (chat, media, web, account, admin).
  registerPlainRoutes(app);
  lazyRoutes(app);
  app
    .get('/files/*', serveFile)
    .post('/webhooks/stripe', limitBody(STRIPE_WEBHOOK_MAX_BYTES), lazy(() => import('./routes/funding/stripe-webhook'), 'stripeWebhook'))
    .put('/uploads/:token', lazy(() => import('./routes/media/uploads.handlers'), 'putUpload'))
    // Keyless x402 (D23): the /v1 routes, paid per request by an agent with a wallet and no key.
    .all(`${X402_PREFIX}/v1/*`, apiKeyAsBearer(), limitBody(32 * MiB), keylessX402(app))
    .on(['GET', 'POST', 'DELETE'], '/mcp', withMcpChallenge(), apiKey(), x402Payment(), limitBody(MCP_MAX_BYTES), mcpHandler(app))
    .route('/', pagesApp())
    .get('/openapi.json', lazy(() => import('./routes/openapi-document'), 'openApiDocument'));

  // A browser that opens an unknown address gets a page; API clients the envelope.
  app.notFound(async (c) => {
    const [{ renderPageError }, { unknownRoute }] = await Promise.all([import('./pages/error-page'), import('./routes/unknown-route')]);
    return renderPageError(unknownRoute(c.req.method, c.req.path), c);
  });
  app.onError(renderError);
  return app;
}
