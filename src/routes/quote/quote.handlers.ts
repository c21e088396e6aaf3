import type { RouteHandler } from '@hono/zod-openapi';
import { holdFailureError } from '../../accounts/failures';
import { affordableOutputTokens, tokenCostMicros } from '../../billing/cost';
import type { AppEnv } from '../../env';
import { formatUsd } from '../../money';
import { knowLocalModels } from '../../products/local-models';
import { priceRequest, type PricedRequest } from '../../products/price-request';
import type { quote } from './quote.routes';

/**
 * `POST /v1/quote` (D25): the route's own validation and worst case, and what the key may spend,
 * read from the account without holding anything; nothing is charged or sent upstream.
 */
export const quoteHandler: RouteHandler<typeof quote, AppEnv> = async (c) => {
  const { path, body } = c.req.valid('json');
  // A quote of a local model (`local/<id>`) needs the local server's list, as the route itself does.
  if (typeof body === 'object' && body !== null && 'model' in body) await knowLocalModels(c, [body.model]);
  const priced = await priceRequest(c, path, body);
  if (priced.model) c.var.log.model = priced.model;
  const caller = c.get('caller');
  const spendable = await caller.account.spendable(caller.keyHash, priced.model ?? undefined, priced.route);
  if (!spendable.ok) throw holdFailureError(spendable);
  const available = spendable.availableMicros;
  // A member is shown its headroom only up to what this request could ever spend, not its
  // organization's balance (issue 35); `affordable` and `max_tokens_affordable` read the real one.
  const shown = spendable.organizationId ? Math.min(available, mostItCouldSpend(priced)) : available;
  return c.json(
    {
      object: 'quote' as const,
      path,
      model: priced.model,
      worst_case_usd: formatUsd(priced.worstMicros),
      estimated_usd: formatUsd(priced.estimatedMicros),
      available_usd: formatUsd(shown),
      affordable: available >= priced.minMicros,
      ...(priced.chat && { max_tokens_affordable: maxTokensAffordable(priced.chat, available) }),
    },
    200,
  );
};

/** The most a request could cost: its worst case, or for chat its prompt with every choice at the model's output cap. */
function mostItCouldSpend(priced: PricedRequest): number {
  if (!priced.chat) return priced.worstMicros;
  const { model, price, promptTokens, choices } = priced.chat;
  const full = tokenCostMicros({ inputTokens: promptTokens, outputTokens: model.maxOutputTokens * choices, cacheReadTokens: 0, cacheWriteTokens: 0 }, price);
  return Math.max(priced.worstMicros, full);
}

/** The largest max_tokens (per choice) the amount pays for after the prompt, up to the model's cap; 0 when it does not cover the prompt. */
function maxTokensAffordable(chat: NonNullable<PricedRequest['chat']>, availableMicros: number): number {
  const tokens = Math.floor(affordableOutputTokens(availableMicros, chat.promptTokens, chat.price) / chat.choices);
  return Math.min(chat.model.maxOutputTokens, tokens);
}
