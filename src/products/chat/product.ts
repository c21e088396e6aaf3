import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import type { BilledPathIn, ProductModule } from '../contract';
import { bodySchemaOf, parseBody } from '../route-body';
import { CHAT_COMPLETIONS } from './formats/chat-completions';
import { MESSAGES } from './formats/messages';
import { countTokensHandler, messagesHandler } from './formats/messages/handlers';
import { planMessages } from './formats/messages/plan';
import { countTokens, messages } from './formats/messages/routes';
import { responsesFormat } from './formats/responses';
import { createResponseHandler, deleteResponseHandler, getResponseHandler, listInputItemsHandler } from './formats/responses/handlers';
import { planResponses } from './formats/responses/plan';
import { createResponse, deleteResponse, getResponse, listInputItems } from './formats/responses/routes';
import { chatCompletionsHandler } from './handlers';
import { priceChat } from './price';
import type { CHAT } from './paths';
import { chatCompletions } from './routes';

export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(chatCompletions, chatCompletionsHandler);
  app.openapi(messages, messagesHandler);
  app.openapi(countTokens, countTokensHandler);
  app.openapi(createResponse, createResponseHandler);
  app.openapi(getResponse, getResponseHandler);
  app.openapi(deleteResponse, deleteResponseHandler);
  app.openapi(listInputItems, listInputItemsHandler);
}

export const prices: ProductModule<BilledPathIn<typeof CHAT>>['prices'] = {
  '/v1/chat/completions': async (body, c) => priceChat(CHAT_COMPLETIONS, parseBody(chatCompletions, body), c.env),
  '/v1/messages': async (body, c) => priceChat(MESSAGES, planMessages(parseBody(messages, body), c.env).body, c.env),
  // Quoted without the stored history a `previous_response_id` would add: the quote reads no store.
  '/v1/responses': async (body, c) => {
    const { body: request, native } = planResponses(parseBody(createResponse, body), c.env);
    return priceChat(responsesFormat(request, { native }), request, c.env);
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
