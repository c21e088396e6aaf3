import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { holdFailureError } from '../../../../accounts/failures';
import { SERVICE_PROVIDER_HEADER, UNSUPPORTED_HEADER, unsupportedHeaderValue } from '../../../../billing/headers';
import { resolveModel, servingRoutes } from '../../../../catalog/resolve';
import type { AppEnv } from '../../../../env';
import { GatewayError } from '../../../../errors';
import { providerBaseUrl, providerKey } from '../../../../providers/registry';
import { sendUpstream } from '../../../../providers/http';
import { knowLocalModels } from '../../../local-models';
import { measurePrompt } from '../../estimate';
import { splitRouting } from '../../routing-schema';
import { serveChat } from '../../serve';
import { MESSAGES } from '.';
import { nativeMessagesRequest } from './native';
import type { countTokens, messages } from './routes';
import type { MessagesBody } from './schema';
import { planMessages } from './plan';
import { splitBetas } from './unpriced';

const COUNT_TIMEOUT_MS = 30_000;

/**
 * `POST /v1/messages` (D30): the chat pipeline in Anthropic's format (`planMessages` first), with
 * what a translation leaves out beyond the parameter rules joining the announced list.
 */
export const messagesHandler: RouteHandler<typeof messages, AppEnv> = async (c) => {
  const input = c.req.valid('json');
  await knowLocalModels(c, [input.model, ...(input.models ?? [])]);
  const { body, announced } = planMessages(input, c.env);
  const response = await serveChat(c, MESSAGES, body);
  // Anthropic got the client's betas but those billed above the catalog's prices.
  if (response.headers.get(SERVICE_PROVIDER_HEADER) === MESSAGES.native?.provider && splitBetas(c.req.header('anthropic-beta') ?? null).leftOut.length) announced.push('anthropic-beta');
  if (announced.length > 0) {
    const already = response.headers.get(UNSUPPORTED_HEADER)?.split(', ') ?? [];
    response.headers.set(UNSUPPORTED_HEADER, unsupportedHeaderValue([...new Set([...already, ...announced])]));
  }
  return response;
};

/**
 * `POST /v1/messages/count_tokens`, free: Anthropic's own count for its models (its endpoint is
 * free too), the gateway's estimate for any other. The key is checked (chat routes) but nothing is held.
 */
export const countTokensHandler: RouteHandler<typeof countTokens, AppEnv> = async (c) => {
  const caller = c.get('caller');
  const found = await caller.account.accountForKey(caller.keyHash, 'chat');
  if (!found.ok) throw holdFailureError(found);
  // Routing members (D34) are the gateway's: Anthropic's count never sees them.
  const { body: input } = splitRouting(c.req.valid('json'));
  // The count needs no output cap; the chat shape does.
  const body: MessagesBody = { ...input, max_tokens: input.max_tokens ?? 1 };
  await knowLocalModels(c, [body.model]);
  const model = resolveModel(body.model, 'chat', c.env);
  const route = servingRoutes(model, c.env)[0]!;
  if (route.provider !== MESSAGES.native?.provider) return c.json({ input_tokens: measurePrompt(MESSAGES.toChat(body), model).estimate }, 200);
  return anthropicCount(c, input as MessagesBody, route.upstreamId);
};

/** Anthropic's own count: the body as sent but the model id, with the client's beta header and query. */
async function anthropicCount(c: Context<AppEnv>, input: MessagesBody, upstreamModel: string) {
  const target = { baseUrl: providerBaseUrl(c.env, 'anthropic'), apiKey: providerKey(c.env, 'anthropic') ?? '', upstreamModel };
  const built = nativeMessagesRequest(input, target, { maxTokens: null, clientHeaders: c.req.raw.headers, clientQuery: new URL(c.req.url).search }, '/messages/count_tokens');
  const outcome = await sendUpstream(built, { timeoutMs: COUNT_TIMEOUT_MS, signal: c.req.raw.signal, errorMessage: MESSAGES.native!.errorMessage });
  if (!outcome.ok) throw outcome.error;
  const answer: unknown = await outcome.response.json().catch(() => null);
  const tokens = typeof answer === 'object' && answer !== null ? (answer as { input_tokens?: unknown }).input_tokens : undefined;
  if (typeof tokens !== 'number') throw new GatewayError('provider_error', 'Anthropic answered the count with an unreadable body.');
  return c.json({ ...(answer as object), input_tokens: tokens }, 200);
}
