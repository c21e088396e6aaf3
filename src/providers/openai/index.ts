import type { ProviderConfig } from '../adapters';
import { openaiChat } from './chat';
import { openaiImages } from './images';
import { openaiSpeech } from './speech';
import { openaiTranscription } from './transcription';
import { openaiVideos } from './videos';
import { openaiEmbeddings } from './embeddings';

/** OpenAI: chat, images, videos, speech, embeddings, transcription. */
export const openai: ProviderConfig = {
  name: 'OpenAI',
  defaultBaseUrl: 'https://api.openai.com/v1',
  versionPrefix: '/v1',
  chat: openaiChat,
  paramGroup: 1,
  images: openaiImages,
  videos: openaiVideos,
  speech: openaiSpeech,
  embeddings: openaiEmbeddings,
  transcription: openaiTranscription,
};
