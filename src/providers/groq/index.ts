import type { ProviderConfig } from '../adapters';
import { groqChat } from './chat';
import { groqTranscription } from './transcription';

/** Groq: chat, transcription (Whisper). */
export const groq: ProviderConfig = {
  name: 'Groq',
  defaultBaseUrl: 'https://api.groq.com/openai/v1',
  versionPrefix: '/openai/v1',
  chat: groqChat,
  // Only `n: 1`; no logprobs or `logit_bias`.
  paramGroup: 2,
  transcription: groqTranscription,
};
