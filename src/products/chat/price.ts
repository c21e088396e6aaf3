import { tokenCostMicros } from '../../billing/cost';
import type { Price } from '../contract';
import { planChat, planOptionsOf } from './chat-plan';
import type { ChatFormat } from './formats/format';
import { splitRouting, type ProviderPrefs } from './routing-schema';

/**
 * Chat's estimate assumes a reply of this many tokens per choice (or the cap when lower): a
 * typical answer, not a bound. The worst case is the bound.
 */
export const TYPICAL_REPLY_TOKENS = 256;

/**
 * A chat body's quote (D25) in any format: the plan its route would hold (`planChat`, with the
 * same `models` and `provider` steering: D34), its worst case the dearest attempt's, and a typical
 * cost on the first attempt.
 */
export function priceChat<Body extends { models?: string[] | undefined; provider?: ProviderPrefs | undefined }>(format: ChatFormat<Body>, routed: Body, env: Env): Price {
  const { body, routing } = splitRouting(routed);
  const request = format.toChat(body);
  const { model, attempts, dearest } = planChat(request, env, { uncarriedBytes: format.uncarriedBytes(body), routing, ...planOptionsOf(format) });
  const first = attempts[0]!;
  const choices = request.n ?? 1;
  const typical = Math.min(first.of.plan.outputCap, TYPICAL_REPLY_TOKENS * choices);
  const estimatedMicros = tokenCostMicros({ inputTokens: first.of.prompt.estimate, outputTokens: typical, cacheReadTokens: 0, cacheWriteTokens: 0 }, first.route.price);
  const { plan, price } = dearest;
  return { model: model.id, worstMicros: plan.maxMicros, minMicros: plan.minMicros, estimatedMicros, chat: { model: dearest.model, price, promptTokens: plan.promptTokens, choices } };
}
