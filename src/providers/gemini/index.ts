import type { ProviderConfig } from '../adapters';
import { geminiChat } from './chat';
import { geminiEmbeddings } from './embeddings';

/** Google Gemini API: chat, embeddings. */
export const gemini: ProviderConfig = {
  name: 'Google Gemini API',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  versionPrefix: '/v1beta',
  chat: geminiChat,
  // generateContent is not chat-completions.
  paramGroup: 3,
  embeddings: geminiEmbeddings,
};
