import type { RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import { CHAT_COMPLETIONS } from './formats/chat-completions';
import type { chatCompletions } from './routes';
import { serveChat } from './serve';

/** `POST /v1/chat/completions`: the chat pipeline (`serveChat`) in the internal shape itself. */
export const chatCompletionsHandler: RouteHandler<typeof chatCompletions, AppEnv> = (c) => serveChat(c, CHAT_COMPLETIONS, c.req.valid('json'));
