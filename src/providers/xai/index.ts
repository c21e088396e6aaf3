import type { ProviderConfig } from '../adapters';
import { xaiChat } from './chat';

/** xAI: chat. */
export const xai = {
  name: 'xAI',
  defaultBaseUrl: 'https://api.x.ai/v1',
  versionPrefix: '/v1',
  chat: xaiChat,
} satisfies ProviderConfig;
