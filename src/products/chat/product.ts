import type { OpenAPIHono } from '@hono/zod-openapi';
import { tokenCostMicros } from '../../billing/cost';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { planChat } from './chat-plan';
import { chatCompletionsHandler } from './handlers';
import type { CHAT } from './paths';
import { chatCompletions } from './routes';

/**
 * Chat's estimate assumes a reply of this many tokens per choice (or the cap when lower): a
 * typical answer, not a bound. The worst case is the bound.
 */
export const TYPICAL_REPLY_TOKENS = 256;

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(chatCompletions, chatCompletionsHandler);
}

export const prices: ProductModule<BilledPathIn<typeof CHAT>>['prices'] = {
  '/v1/chat/completions': async (body, c) => {
    const request = parseBody(chatCompletions, body);
    const { model, routes, price, prompt, plan } = planChat(request, c.env);
    const choices = request.n ?? 1;
    const typical = Math.min(plan.outputCap, TYPICAL_REPLY_TOKENS * choices);
    const estimatedMicros = tokenCostMicros({ inputTokens: prompt.estimate, outputTokens: typical, cacheReadTokens: 0, cacheWriteTokens: 0 }, routes[0]!.price);
    return { model: model.id, worstMicros: plan.maxMicros, minMicros: plan.minMicros, estimatedMicros, chat: { model, price, promptTokens: plan.promptTokens, choices } };
  },
};

export const tools: ProductModule<never>['tools'] = [
  {
    name: 'chat_completion',
    description: 'An OpenAI-compatible chat completion (POST /v1/chat/completions, never streamed here). Billed per token.',
    args: bodySchemaOf(chatCompletions),
    request: (args) => ({ method: 'POST', path: '/v1/chat/completions', body: { ...args, stream: false } }),
  },
];
