import { createRoute, z } from '@hono/zod-openapi';
import { jsonResponse } from '../schemas';

export const health = createRoute({
  method: 'get',
  path: '/health',
  tags: ['discovery'],
  summary: 'Liveness, version and uptime',
  responses: {
    200: jsonResponse(
      z.object({ status: z.literal('ok'), version: z.string(), timestamp: z.iso.datetime(), uptime: z.int().openapi({ description: 'seconds' }) }),
      'Healthy',
    ),
  },
});

export const protectedResource = createRoute({
  method: 'get',
  path: '/.well-known/oauth-protected-resource',
  tags: ['discovery'],
  summary: 'Protected-resource metadata (RFC 9728 shape) with the agent_auth extension',
  responses: {
    200: jsonResponse(
      z.object({
        resource: z.url(),
        bearer_methods_supported: z.array(z.string()),
        resource_documentation: z.url(),
        agent_auth: z.object({
          spec: z.url(),
          auth_md: z.url(),
          identity_endpoint: z.url(),
          claim_endpoint: z.url(),
          identity_types_supported: z.array(z.string()),
          credential_type: z.string(),
        }),
      }),
      'Metadata',
    ),
  },
});

const markdown = (description: string) => ({ description, content: { 'text/markdown': { schema: z.string() } } });

export const authMd = createRoute({
  method: 'get',
  path: '/auth.md',
  tags: ['discovery'],
  summary: 'Step-by-step guide for an agent: register, fund, check the balance, hand over the claim',
  responses: { 200: markdown('The guide') },
});

export const llmsTxt = createRoute({
  method: 'get',
  path: '/llms.txt',
  tags: ['discovery'],
  summary: 'A map of the service for language models (llms.txt)',
  responses: { 200: { description: 'llms.txt', content: { 'text/plain': { schema: z.string() } } } },
});
