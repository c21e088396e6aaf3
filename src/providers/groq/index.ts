import type { ProviderConfig } from '../adapters';
import { groqChat } from './chat';

/** Groq: chat. */
export const groq = {
  name: 'Groq',
  defaultBaseUrl: 'https://api.groq.com/openai/v1',
  versionPrefix: '/openai/v1',
  chat: groqChat,
} satisfies ProviderConfig;
