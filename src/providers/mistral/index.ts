import type { ProviderConfig } from '../adapters';
import { mistralChat } from './chat';
import { mistralEmbeddings } from './embeddings';

/** Mistral AI: chat, embeddings. */
export const mistral: ProviderConfig = {
  name: 'Mistral AI',
  defaultBaseUrl: 'https://api.mistral.ai/v1',
  versionPrefix: '/v1',
  chat: mistralChat,
  // No logprobs or `logit_bias`; `seed` is its `random_seed`.
  paramGroup: 2,
  embeddings: mistralEmbeddings,
};
