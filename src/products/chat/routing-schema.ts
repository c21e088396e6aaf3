import { z } from '@hono/zod-openapi';

/**
 * The routing members every chat format takes (D34, contract "Routing a request"): checked here
 * for shape, against the catalog and the registry when the request is planned (`routing.ts`), and
 * never sent upstream (`splitRouting`).
 */

/** The most fallback models a request may name after `model`. */
export const MAX_FALLBACK_MODELS = 5;

const ProviderNames = z.array(z.string().min(1).max(64)).max(32);

export const ProviderPreferences = z
  .strictObject({
    order: ProviderNames.optional().openapi({ description: 'Providers to try first, in this order (names as /v1/models shows them under endpoints[].provider)' }),
    only: ProviderNames.optional().openapi({ description: 'Serve only on these providers' }),
    ignore: ProviderNames.optional().openapi({ description: 'Never serve on these providers' }),
    allow_fallbacks: z.boolean().optional().openapi({ description: 'false: only the first matching provider of each model (only those in `order` when given); default true' }),
    sort: z.enum(['price', 'latency', 'throughput']).optional().openapi({ description: 'price: cheapest route of each model first; latency and throughput keep catalog order (speed is not measured; a route whose breaker is open is tried last whatever the sort)' }),
    max_price: z
      .strictObject({ prompt: z.number().min(0).optional(), completion: z.number().min(0).optional() })
      .optional()
      .openapi({ description: 'USD per million tokens: routes dearer than this are not used' }),
    require_parameters: z.boolean().optional().openapi({ description: 'true: only routes that apply every parameter given (else 400 naming it)' }),
  })
  .openapi('ProviderPreferences');

export const RoutingMembers = {
  models: z
    .array(z.string().min(1).max(200))
    .max(MAX_FALLBACK_MODELS)
    .optional()
    .openapi({ description: `Up to ${MAX_FALLBACK_MODELS} chat model ids tried in order after \`model\` when it cannot serve the request`, example: ['anthropic/claude-haiku-4-5'] }),
  provider: ProviderPreferences.optional(),
};

export type ProviderPrefs = z.output<typeof ProviderPreferences>;

/** What a request asks of routing; both absent: the catalog's order, as without these members. */
export interface Routing {
  models: string[];
  provider: ProviderPrefs;
}

/** The body without its routing members (what an upstream may see), and the routing they asked for. */
export function splitRouting<Body extends { models?: string[] | undefined; provider?: ProviderPrefs | undefined }>(body: Body): { body: Body; routing: Routing } {
  if (body.models === undefined && body.provider === undefined) return { body, routing: { models: [], provider: {} } };
  const clean = { ...body };
  delete clean.models;
  delete clean.provider;
  return { body: clean, routing: { models: body.models ?? [], provider: body.provider ?? {} } };
}

/** What every chat answer says of what served it (D34), as the OpenAPI document shows it. */
export const ServedHeaders = {
  'X-Service-Model': z.string().openapi({ description: 'The model that served (a fallback from `models` when one did); on an error, the one called last' }),
  'X-Service-Provider': z.string().openapi({ description: 'The provider that served (names as /v1/models shows them under endpoints[].provider)' }),
};

/** The headers of every chat answer in any format: its cost (non-streamed), the balance, the request id, what was announced and what served. */
export const ChatAnswerHeaders = z.object({
  'X-Service-Cost': z.string().openapi({ description: 'USD charged (non-streamed answers)' }),
  'X-Service-Credits-Remaining': z.string(),
  'X-Service-Request-Id': z.string(),
  'x-service-unsupported-params': z.string().optional(),
  ...ServedHeaders,
});
