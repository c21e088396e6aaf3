import { affordableOutputTokens, tokenCostMicros } from '../../billing/cost';
import type { ChatModel, TokenPrice } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { formatUsd } from '../../money';
import type { ChatRequest } from '../../providers/chat/types';

export interface HoldPlan {
  promptTokens: number;
  /** Output tokens the request may produce in all (max_tokens times n). */
  outputCap: number;
  minMicros: number;
  maxMicros: number;
  /** The client set max_tokens: the hold is all or nothing. */
  fixedCap: boolean;
  /** Output tokens per choice a `prediction` may add beyond max_tokens. */
  predictionTokens: number;
}

const zeroUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * The worst case of a chat request (D5, D33): the prompt's bound at the dearest prompt price plus
 * the output cap, and the prediction's tokens per choice (OpenAI bills rejected ones as output,
 * beyond `max_tokens`). A cap above the model's own is a 400, as OpenAI answers it: the hold could
 * not cover what the upstream is allowed to produce, and a cap near 2^53 would not be a whole
 * number of micro-dollars.
 */
export function planHold(request: ChatRequest, model: ChatModel, price: TokenPrice, promptTokens: number, predictionTokens = 0): HoldPlan {
  const requested = request.max_tokens ?? request.max_completion_tokens;
  if (requested !== undefined && requested > model.maxOutputTokens) {
    const param = request.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens';
    throw new GatewayError('invalid_request', `${param} is too large: ${requested}. ${model.id} produces at most ${model.maxOutputTokens} output tokens.`, { param });
  }
  const choices = request.n ?? 1;
  const outputCap = ((requested ?? model.maxOutputTokens) + predictionTokens) * choices;
  const cost = (outputTokens: number) => tokenCostMicros({ ...zeroUsage, inputTokens: promptTokens, outputTokens }, price);
  const maxMicros = cost(outputCap);
  const minMicros = requested === undefined ? cost((1 + predictionTokens) * choices) : maxMicros;
  return { promptTokens, outputCap, maxMicros, minMicros, fixedCap: requested !== undefined, predictionTokens };
}

/** The max_tokens the held amount pays for per choice, when it is below the cap (D5: lower the cap). */
export function loweredMaxTokens(plan: HoldPlan, heldMicros: number, price: TokenPrice, choices: number): number | null {
  if (plan.fixedCap || heldMicros >= plan.maxMicros) return null;
  return Math.max(1, Math.floor(affordableOutputTokens(heldMicros, plan.promptTokens, price) / choices) - plan.predictionTokens);
}

/** D5's 402 message: what the balance covers, so the caller can lower max_tokens or fund. */
export function shortfallMessage(plan: HoldPlan, availableMicros: number, price: TokenPrice, model: ChatModel): string {
  const covered = affordableOutputTokens(availableMicros, plan.promptTokens, price);
  const balance = `$${formatUsd(availableMicros)}`;
  if (covered < 1) {
    return `Insufficient credits: the available balance of ${balance} does not cover this prompt (about ${plan.promptTokens} tokens) on ${model.id}. Fund the account and retry.`;
  }
  return plan.fixedCap
    ? `Insufficient credits: this request may cost up to $${formatUsd(plan.maxMicros)}; the available balance of ${balance} covers about ${covered} output tokens on ${model.id}. Lower max_tokens to ${covered} or fund the account.`
    : `Insufficient credits: the available balance of ${balance} covers about ${covered} output tokens on ${model.id}. Fund the account and retry.`;
}
