import type { ProviderConfig } from '../adapters';
import { xaiChat } from './chat';

/** xAI: chat. */
export const xai: ProviderConfig = {
  name: 'xAI',
  defaultBaseUrl: 'https://api.x.ai/v1',
  versionPrefix: '/v1',
  chat: xaiChat,
  // xAI documents `n`, logprobs, `logit_bias`, `response_format`, `seed` and both penalties.
  paramGroup: 1,
};
