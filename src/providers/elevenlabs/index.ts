import type { ProviderConfig } from '../adapters';
import { elevenlabsSpeech } from './speech';

/** ElevenLabs: speech. */
export const elevenlabs: ProviderConfig = {
  name: 'ElevenLabs',
  defaultBaseUrl: 'https://api.elevenlabs.io/v1',
  versionPrefix: '/v1',
  speech: elevenlabsSpeech,
};
