import type { RouteHandler } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { holdFailureError } from '../../../../accounts/failures';
import { UNSUPPORTED_HEADER, unsupportedHeaderValue } from '../../../../billing/headers';
import { resolveModel, servingRoutes } from '../../../../catalog/resolve';
import type { AppEnv } from '../../../../env';
import { GatewayError } from '../../../../errors';
import { providerBaseUrl, providerKey } from '../../../../providers/registry';
import { sendUpstream } from '../../../../providers/http';
import { measurePrompt } from '../../estimate';
import { serveChat } from '../../serve';
import { MESSAGES } from '.';
import { nativeMessagesRequest } from './native';
import type { countTokens, messages } from './routes';
import type { MessagesBody } from './schema';
import { translationIssues } from './translated';
import { refuseUnpriced } from './unpriced';

const COUNT_TIMEOUT_MS = 30_000;

/** Whether a body for this model goes to Anthropic as it is: its first serving route is Anthropic's. */
function servedNatively(body: MessagesBody, env: Env): boolean {
  return servingRoutes(resolveModel(body.model, 'chat'), env)[0]?.provider === MESSAGES.native?.provider;
}

/**
 * The body a route serves and a quote prices, refused first if it asks what the catalog does not
 * price (`refuseUnpriced`). The format requires `max_tokens`, so clients guess
 * high (Claude Code asks 32,000 of any model); on a translated model a value above its output cap
 * is read as the cap, which is all it can produce. Anthropic's models keep Anthropic's own rule.
 */
export function servedBody(body: MessagesBody, env: Env): MessagesBody {
  refuseUnpriced(body);
  if (servedNatively(body, env)) return body;
  const cap = resolveModel(body.model, 'chat').maxOutputTokens;
  return body.max_tokens > cap ? { ...body, max_tokens: cap } : body;
}

/**
 * `POST /v1/messages` (D30): the chat pipeline in Anthropic's format. A translated body is first
 * checked for what only Anthropic can do (a 400 naming it), and what it leaves out beyond the
 * parameter rules (`metadata`, block `cache_control`, earlier thinking) joins the announced list.
 */
export const messagesHandler: RouteHandler<typeof messages, AppEnv> = async (c) => {
  const body = servedBody(c.req.valid('json'), c.env);
  const announced = servedNatively(body, c.env) ? [] : translationIssues(body);
  const response = await serveChat(c, MESSAGES, body);
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
  const input = c.req.valid('json');
  // The count needs no output cap; the chat shape does.
  const body: MessagesBody = { ...input, max_tokens: input.max_tokens ?? 1 };
  const model = resolveModel(body.model, 'chat');
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
