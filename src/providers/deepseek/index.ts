import type { ProviderConfig } from '../adapters';
import { deepseekChat } from './chat';

/** DeepSeek: chat. DeepSeek serves the same API with and without `/v1`; its documentation writes none. */
export const deepseek: ProviderConfig = {
  name: 'DeepSeek',
  defaultBaseUrl: 'https://api.deepseek.com',
  versionPrefix: '',
  chat: deepseekChat,
  // No `n`; no `logit_bias`.
  paramGroup: 2,
};
