// The gateway imports most of its modules on first use (docs/contributors/architecture.md, "Startup"). In workerd under Vitest
// each such import is transformed on demand, which can take seconds on a busy machine: load them
// all once per Vitest worker here, before any test's timeout runs, as a cold isolate's first
// requests would. The lazy paths themselves still run in the tests (routes are built per request).
await Promise.all([
  import('../../src/routes/openapi-document'),
  import('../../durable-objects/account/account'),
  import('../../durable-objects/web-job/web-job'),
  import('../../src/products/chat/product'),
  import('../../src/products/images/product'),
  import('../../src/products/speech/product'),
  import('../../src/products/videos/product'),
  import('../../src/products/web/product'),
  import('../../src/products/embeddings/product'),
  import('../../src/routes/lazy/media'),
  import('../../src/routes/lazy/account'),
  import('../../src/routes/lazy/admin'),
  import('../../src/routes/api-app'),
  import('../../src/routes/funding/stripe-webhook'),
  import('../../src/routes/media/uploads.handlers'),
  import('../../src/routes/models/models.handlers'),
  import('../../src/pages/error-page'),
  import('../../src/pages/assets'),
  import('../../src/pages/claim/handlers'),
  import('../../src/pages/dashboard/handlers'),
  import('../../src/pages/dashboard/organizations-handlers'),
  import('../../src/pages/dashboard/keys-handlers'),
  import('../../src/pages/dashboard/ledger-handlers'),
  import('../../src/pages/dashboard/styles'),
  import('../../src/pages/dashboard/security-handlers'),
  import('../../src/pages/dashboard/top-up-handlers'),
  import('../../src/pages/fund/handlers'),
  import('../../src/pages/signin/handlers'),
  import('../../src/mcp/server'),
  import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  import('../../src/products/price-request'),
  import('../../durable-objects/web-job/page-tools'),
  import('../../src/queue/consumer'),
  import('../../src/cron/scheduled'),
  import('@simplewebauthn/server'),
  import('@simplewebauthn/server/helpers'),
]);

export {};
