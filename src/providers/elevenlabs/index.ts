import type { ProviderConfig } from '../adapters';
import { elevenlabsSpeech } from './speech';
import { elevenlabsTranscription } from './transcription';

/** ElevenLabs: speech, transcription (Scribe). */
export const elevenlabs: ProviderConfig = {
  name: 'ElevenLabs',
  defaultBaseUrl: 'https://api.elevenlabs.io/v1',
  versionPrefix: '/v1',
  speech: elevenlabsSpeech,
  transcription: elevenlabsTranscription,
};
