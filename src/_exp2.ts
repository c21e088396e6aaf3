import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from './env';
import { validationError } from './errors';
import { requestId } from './middleware/request-id';
import { requestLog } from './middleware/request-log';
import { refuseSelfFetch } from './middleware/self-fetch';
import * as chat from './routes/chat/chat.handlers';
import * as chatRoutes from './routes/chat/chat.routes';
export { AccountDurableObject } from '../durable-objects/account/account';
export { SettlementJournalDurableObject } from '../durable-objects/settlement-journal/journal';
const app = new OpenAPIHono<AppEnv>({ defaultHook: (r) => { if (!r.success) throw validationError(r.error); } });
app.use('*', requestId(), requestLog(), refuseSelfFetch());
app.openapi(chatRoutes.chatCompletions, chat.chatCompletionsHandler);
export default { fetch: app.fetch };
import { DurableObject } from "cloudflare:workers"; export class WebJobDurableObject extends DurableObject {} export class FundingWatcherDurableObject extends DurableObject {}
