import { resolveModel, servingRoutes } from '../../../../catalog/resolve';
import { MESSAGES } from '.';
import type { ChatModel } from '../../../../catalog/types';
import type { MessagesBody } from './schema';
import { translationIssues } from './translated';
import { refuseUnpriced } from './unpriced';

/** The body a Messages route serves and its quote prices, and what a translation announces beyond the parameter rules. */
export interface MessagesPlan {
  body: MessagesBody;
  /** `metadata`, block `cache_control`, earlier thinking: left out by a translated route (`translationIssues`). */
  announced: string[];
  native: boolean;
}

/**
 * What the route and its quote (D25) both decide before the chat plan: a 400 for what the catalog
 * does not price (`refuseUnpriced`, every route), and on a translated model (its first route not
 * Anthropic's) a 400 for what only Anthropic can do. The format requires `max_tokens`, so clients
 * guess high (Claude Code asks 32,000 of any model): on a translated model a value above its
 * output cap is read as the cap, all it can produce. Anthropic's models keep Anthropic's own rule.
 */
export function planMessages(input: MessagesBody, env: Env): MessagesPlan {
  refuseUnpriced(input);
  const model = resolveModel(input.model, 'chat', env);
  if (firstProvider(model, env, input.models) === MESSAGES.native?.provider) return { body: input, announced: [], native: true };
  const body = input.max_tokens > model.maxOutputTokens ? { ...input, max_tokens: model.maxOutputTokens } : input;
  return { body, announced: translationIssues(body), native: false };
}

/** The provider of the model's first route; a model this gateway does not serve, with fallbacks (D34), is read as translated, and the engine plans the fallbacks. */
function firstProvider(model: ChatModel, env: Env, fallbacks: string[] | undefined): string | undefined {
  if (!fallbacks?.length) return servingRoutes(model, env)[0]?.provider;
  try {
    return servingRoutes(model, env)[0]?.provider;
  } catch {
    return undefined;
  }
}
