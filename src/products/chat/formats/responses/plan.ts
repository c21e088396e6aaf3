import { resolveModel, servingRoutes } from '../../../../catalog/resolve';
import type { ResponsesBody } from './schema';
import { refuseUnpriced, withoutHostedTools } from './unpriced';

/** The body a Responses route serves and its quote prices, and how. */
export interface ResponsesPlan {
  body: ResponsesBody;
  /** OpenAI serves every route: the body goes to it intact but for its hosted tools. */
  native: boolean;
  /** Hosted tools were left out of OpenAI's body (a translated model's are left out by `toChat`), for `x-service-unsupported-params`. */
  leftOut: boolean;
}

/** What the route and its quote (D25) both decide before the chat plan: a 400 for what no hold can count (`unpriced.ts`, every route). */
export function planResponses(client: ResponsesBody, env: Env): ResponsesPlan {
  refuseUnpriced(client);
  if (!servedNatively(client.model, env, client.models)) return { body: client, native: false, leftOut: false };
  return { ...withoutHostedTools(client), native: true };
}

/**
 * Whether OpenAI serves every route of the model, so the body goes to it intact (D30). A model
 * with any other route is translated on all of them, so what a translated answer cannot carry is
 * refused before the first attempt rather than after a fallback. A model that cannot be planned
 * is left to the engine, which answers its error.
 */
function servedNatively(model: string, env: Env, fallbacks: string[] = []): boolean {
  try {
    // Fallback models (`models`, D34) too: a body fit only for OpenAI must not reach another provider.
    return [model, ...fallbacks].every((id) => servingRoutes(resolveModel(id, 'chat'), env).every((route) => route.provider === 'openai'));
  } catch {
    return false;
  }
}
