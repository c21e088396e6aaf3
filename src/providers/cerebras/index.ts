import type { ProviderConfig } from '../adapters';
import { cerebrasChat } from './chat';

/**
 * Cerebras Inference: chat. Group 2: its reference documents no `n` (one choice per request);
 * the members it rejects are its adapter's `unapplied`.
 */
export const cerebras: ProviderConfig = {
  name: 'Cerebras',
  defaultBaseUrl: 'https://api.cerebras.ai/v1',
  versionPrefix: '/v1',
  chat: cerebrasChat,
  paramGroup: 2,
};
