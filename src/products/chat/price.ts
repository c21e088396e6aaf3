import { tokenCostMicros } from '../../billing/cost';
import type { Price } from '../contract';
import { planChat } from './chat-plan';
import type { ChatFormat } from './formats/format';

/**
 * Chat's estimate assumes a reply of this many tokens per choice (or the cap when lower): a
 * typical answer, not a bound. The worst case is the bound.
 */
export const TYPICAL_REPLY_TOKENS = 256;

/** A chat body's quote (D25) in any format: the plan its route would hold (`planChat`), and a typical cost. */
export function priceChat<Body>(format: ChatFormat<Body>, body: Body, env: Env): Price {
  const request = format.toChat(body);
  const { model, routes, price, prompt, plan } = planChat(request, env, format.uncarriedBytes(body));
  const choices = request.n ?? 1;
  const typical = Math.min(plan.outputCap, TYPICAL_REPLY_TOKENS * choices);
  const estimatedMicros = tokenCostMicros({ inputTokens: prompt.estimate, outputTokens: typical, cacheReadTokens: 0, cacheWriteTokens: 0 }, routes[0]!.price);
  return { model: model.id, worstMicros: plan.maxMicros, minMicros: plan.minMicros, estimatedMicros, chat: { model, price, promptTokens: plan.promptTokens, choices } };
}
