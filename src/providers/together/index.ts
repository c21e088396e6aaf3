import type { ProviderConfig } from '../adapters';
import { togetherChat } from './chat';
import { togetherEmbeddings } from './embeddings';

/** Together AI: chat, embeddings. */
export const together: ProviderConfig = {
  name: 'Together AI',
  defaultBaseUrl: 'https://api.together.xyz/v1',
  versionPrefix: '/v1',
  chat: togetherChat,
  // Together documents `n`, logprobs, `logit_bias`, `response_format`, `seed` and both penalties.
  paramGroup: 1,
  embeddings: togetherEmbeddings,
};
