import type { ProviderConfig } from '../adapters';
import { openAICompatibleChat } from '../openai-compatible/chat';
import { answerEcho } from './echo';

/**
 * The gateway itself, for its demo model `gateway/echo` (`DEMO_MODEL`): answered inside the Worker
 * (`answer`), never fetched, in OpenAI's chat-completions format read by the shared adapter.
 */
export const gateway: ProviderConfig = {
  name: 'Gateway demo',
  defaultBaseUrl: 'https://gateway.invalid/v1',
  versionPrefix: '/v1',
  chat: openAICompatibleChat({ path: '/chat/completions' }),
  paramGroup: 2,
  answer: answerEcho,
};
