import { resolveModel } from '../../catalog/resolve';
import type { ChatModel, ChatRoute, TokenPrice } from '../../catalog/types';
import { GatewayError } from '../../errors';
import type { ChatRequest } from '../../providers/chat/types';
import type { ProviderId } from '../../providers/ids';
import { checkContent } from './content';
import type { ChatFormat } from './formats/format';
import { measurePrompt, predictionTokens, type PromptSize } from './estimate';
import { planHold, type HoldPlan } from './hold-plan';
import { holdPrice } from './resolve';
import { candidateModels, preferredRoutes, routesTakingParams } from './routing';
import type { Routing } from './routing-schema';

/** The most upstream calls one request makes (routes and fallback models together). */
export const MAX_ATTEMPTS = 6;

/** One model's part of a plan: its routes to try, and its worst case at their dearest price (D33). */
export interface ModelPlan {
  model: ChatModel;
  routes: ChatRoute[];
  /** The dearest of its routes (`holdPrice`). */
  price: TokenPrice;
  prompt: PromptSize;
  plan: HoldPlan;
  /** The output cap this model is sent when the format reads a higher one as its cap (`PlanOptions.capOutput`); null: as asked. */
  maxTokens: number | null;
}

/** How a format's body is planned. */
export interface PlanOptions {
  /** What a format's native upstream receives that the internal request lacks (UTF-8 bytes). */
  uncarriedBytes?: number;
  routing?: Routing;
  /** The provider that gets the client's body intact. */
  native?: ProviderId;
  /**
   * A `max_tokens` above a translated model's output cap is read as the cap (Messages: clients
   * guess high, `planMessages`), on fallback models too.
   */
  capOutput?: boolean;
}

/** One upstream call the request may make, in order. */
export interface Attempt {
  model: ChatModel;
  route: ChatRoute;
  /** Its model's plan: the price and bound the output cap is lowered against (D5). */
  of: ModelPlan;
}

/** A chat request's attempts and worst case, decided before any money moves. */
export interface ChatPlan {
  /** The model the request names (`model`). */
  model: ChatModel;
  attempts: Attempt[];
  /** The dearest attempt's model plan: the hold covers whichever attempt ends up serving (D33, D34). */
  dearest: ModelPlan;
}

/** What a format's plan depends on beyond its body: its native provider, and how it reads `max_tokens`. */
export function planOptionsOf<Body>(format: ChatFormat<Body>): Pick<PlanOptions, 'native' | 'capOutput'> {
  return { ...(format.native && { native: format.native.provider }), capOutput: format.readsHighCapAsCap === true };
}

const NO_ROUTING: Routing = { models: [], provider: {} };

/**
 * What the chat route and its quote (D25) both decide first: the models and routes it may be
 * served by (`model`, then `models`, as the provider preferences allow: D34), each model's
 * content and parameter rules and context check, and the hold's bound (D33) at the dearest
 * attempt. A model that cannot serve the request is skipped for the next; none can: the first
 * one's 400 (or 404). One function, so a quote answers for exactly the plan the route would hold.
 * `uncarriedBytes`: what a format's native upstream receives that the internal request lacks;
 * `native`: the provider that receives it.
 */
export function planChat(request: ChatRequest, env: Env, options: PlanOptions = {}): ChatPlan {
  const { uncarriedBytes = 0, routing = NO_ROUTING, native, capOutput = false } = options;
  const primary = resolveModel(request.model, 'chat', env);
  const plans: ModelPlan[] = [];
  let refusal: unknown;
  for (const model of candidateModels(primary, routing, env)) {
    try {
      plans.push(planModel(request, model, env, { routing, uncarriedBytes, native, capOutput }));
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      refusal ??= err;
    }
  }
  const attempts = plans.flatMap((of) => of.routes.map((route) => ({ model: of.model, route, of }))).slice(0, MAX_ATTEMPTS);
  if (attempts.length === 0) throw refusal;
  const reached = plans.filter((of) => attempts.some((attempt) => attempt.of === of));
  const dearest = reached.reduce((a, b) => (b.plan.maxMicros > a.plan.maxMicros ? b : a));
  return { model: primary, attempts, dearest };
}

function planModel(request: ChatRequest, model: ChatModel, env: Env, options: Required<Omit<PlanOptions, 'native'>> & Pick<PlanOptions, 'native'>): ModelPlan {
  const { routing, uncarriedBytes, native, capOutput } = options;
  const asked = { ...request, model: model.id };
  checkContent(asked, model);
  const preferred = preferredRoutes(model, env, routing.provider);
  // Read as the cap only where no route takes the body natively (which keeps its own provider's rule).
  const capped = capOutput && !preferred.some((route) => route.provider === native) && asked.max_tokens !== undefined && asked.max_tokens > model.maxOutputTokens;
  if (capped) asked.max_tokens = model.maxOutputTokens;
  const routes = routesTakingParams(asked, preferred, routing.provider.require_parameters === true, native);
  const measured = measurePrompt(asked, model);
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
  return { model, routes, price, prompt, plan: planHold(asked, model, price, prompt.bound, predictionTokens(asked)), maxTokens: capped ? model.maxOutputTokens : null };
}
