import type { ProviderConfig } from '../adapters';
import { togetherChat } from './chat';

/** Together AI: chat. */
export const together = {
  name: 'Together AI',
  defaultBaseUrl: 'https://api.together.xyz/v1',
  versionPrefix: '/v1',
  chat: togetherChat,
} satisfies ProviderConfig;
