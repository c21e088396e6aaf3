import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../env';
import * as chat from '../../products/chat/handlers';
import * as chatRoutes from '../../products/chat/routes';

/** Chat completions: the `chat` group of `LAZY_ROUTES` (zod and the chat schema load with it, docs/contributors/architecture.md, "Startup"). */
export function register(app: OpenAPIHono<AppEnv>) {
  app.openapi(chatRoutes.chatCompletions, chat.chatCompletionsHandler);
}
