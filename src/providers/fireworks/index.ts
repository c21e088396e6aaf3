import type { ProviderConfig } from '../adapters';
import { fireworksChat } from './chat';

/** Fireworks AI: chat. */
export const fireworks: ProviderConfig = {
  name: 'Fireworks AI',
  defaultBaseUrl: 'https://api.fireworks.ai/inference/v1',
  versionPrefix: '/inference/v1',
  chat: fireworksChat,
  // Fireworks documents `n`, logprobs, `logit_bias`, `response_format`, `seed` and both penalties.
  paramGroup: 1,
};
