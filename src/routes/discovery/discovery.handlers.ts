import type { RouteHandler } from '@hono/zod-openapi';
import { version } from '../../../package.json';
import type { AppEnv } from '../../env';
import { publicBaseUrl } from '../../urls';
import { authMarkdown } from './auth-md';
import type { authMd, health, llmsTxt, protectedResource } from './discovery.routes';
import { llmsText } from './llms-txt';

/** Set on the first request: module scope runs before Workers' clock starts. */
let startedAt: number | undefined;

export const healthHandler: RouteHandler<typeof health, AppEnv> = (c) => {
  const now = Date.now();
  startedAt ??= now;
  return c.json(
    { status: 'ok' as const, version, timestamp: new Date(now).toISOString(), uptime: Math.floor((now - startedAt) / 1000) },
    200,
  );
};

export const protectedResourceHandler: RouteHandler<typeof protectedResource, AppEnv> = (c) => {
  const base = publicBaseUrl(c);
  return c.json(
    {
      resource: base,
      bearer_methods_supported: ['header'],
      resource_documentation: `${base}/auth.md`,
      agent_auth: {
        spec: `${base}/openapi.json`,
        auth_md: `${base}/auth.md`,
        identity_endpoint: `${base}/agent/register`,
        claim_endpoint: `${base}/agent/claim/init`,
        identity_types_supported: ['anonymous'],
        credential_type: 'api_key',
      },
    },
    200,
  );
};

export const authMdHandler: RouteHandler<typeof authMd, AppEnv> = (c) =>
  c.text(authMarkdown(publicBaseUrl(c)), 200, { 'Content-Type': 'text/markdown; charset=utf-8' });

export const llmsTxtHandler: RouteHandler<typeof llmsTxt, AppEnv> = (c) =>
  c.text(llmsText(publicBaseUrl(c)), 200);
