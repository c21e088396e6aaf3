import type { ProviderConfig } from '../adapters';
import { anthropicChat } from './chat';

/** Anthropic: chat. */
export const anthropic: ProviderConfig = {
  name: 'Anthropic',
  defaultBaseUrl: 'https://api.anthropic.com/v1',
  versionPrefix: '/v1',
  chat: anthropicChat,
  // Messages is not chat-completions.
  paramGroup: 3,
};
