import type { ProviderConfig } from '../adapters';
import { mistralChat } from './chat';

/** Mistral AI: chat. */
export const mistral = {
  name: 'Mistral AI',
  defaultBaseUrl: 'https://api.mistral.ai/v1',
  versionPrefix: '/v1',
  chat: mistralChat,
} satisfies ProviderConfig;
