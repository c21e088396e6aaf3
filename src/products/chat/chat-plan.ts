import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { ChatModel, ChatRoute, TokenPrice } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';
import { paramGroup } from '../../providers/registry';
import { checkContent } from './content';
import { measurePrompt, predictionTokens, type PromptSize } from './estimate';
import { planHold, type HoldPlan } from './hold-plan';
import { applyParamRules } from './params';
import { holdPrice } from './resolve';

/** A chat request's model, routes and worst case, decided before any money moves. */
export interface ChatPlan {
  model: ChatModel;
  routes: ChatRoute[];
  /** The hold's price: the dearest of the routes (`holdPrice`). */
  price: TokenPrice;
  prompt: PromptSize;
  plan: HoldPlan;
}

/**
 * What the chat route and its quote (D25) both decide first: the model, its serving routes, the
 * content and parameter rules (400s before any money moves), the context check and the hold's
 * bound (D33). One function, so a quote answers for exactly the plan the route would hold.
 * `uncarriedBytes`: what a format's native upstream receives that the internal request lacks.
 */
export function planChat(request: ChatRequest, env: Env, uncarriedBytes = 0): ChatPlan {
  const model = resolveModel(request.model, 'chat');
  const routes = servingRoutes(model, env);
  checkContent(request, model);
  applyParamRules(request, paramGroup(routes[0]!));
  const measured = measurePrompt(request, model);
  // What a native upstream gets beyond the internal request counts one token per byte too, up to the context (D33).
  const prompt = uncarriedBytes > 0 ? { ...measured, bound: Math.min(measured.bound + uncarriedBytes, model.contextLength) } : measured;
  if (prompt.estimate >= model.contextLength) {
    throw new GatewayError(
      'invalid_request',
      `This prompt is about ${prompt.estimate} tokens; ${model.id} takes at most ${model.contextLength} tokens of prompt and output together. Shorten the messages.`,
      { param: 'messages' },
    );
  }
  const price = holdPrice(routes);
  return { model, routes, price, prompt, plan: planHold(request, model, price, prompt.bound, predictionTokens(request)) };
}
