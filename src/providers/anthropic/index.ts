import type { ProviderConfig } from '../adapters';
import { anthropicChat } from './chat';

/** Anthropic: chat. */
export const anthropic = {
  name: 'Anthropic',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  versionPrefix: '/v1',
  chat: anthropicChat,
} satisfies ProviderConfig;
