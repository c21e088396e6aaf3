import type { ProviderConfig } from '../adapters';
import { fireworksChat } from './chat';

/** Fireworks AI: chat. */
export const fireworks = {
  name: 'Fireworks AI',
  defaultBaseUrl: 'https://api.fireworks.ai/inference/v1',
  versionPrefix: '/inference/v1',
  chat: fireworksChat,
} satisfies ProviderConfig;
