import type { ProviderConfig } from '../adapters';
import { openaiChat } from './chat';
import { openaiImages } from './images';
import { openaiSpeech } from './speech';
import { openaiVideos } from './videos';

/** OpenAI: chat, images, videos, speech. */
export const openai = {
  name: 'OpenAI',
  defaultBaseUrl: 'https://api.openai.com/v1',
  versionPrefix: '/v1',
  chat: openaiChat,
  images: openaiImages,
  videos: openaiVideos,
  speech: openaiSpeech,
} satisfies ProviderConfig;
