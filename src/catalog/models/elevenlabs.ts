import type { CatalogModel } from '../types';
import { ELEVENLABS_PRICING } from './sources';

/**
 * ElevenLabs text-to-speech on the ElevenLabs API. API price per 1K characters:
 * Multilingual v2 / v3 $0.10, Flash / Turbo $0.05. Default voice "George".
 */
const VOICE = 'JBFqnCBsd6RMkjVDRZzb';

export const elevenlabs = [
  {
    type: 'audio',
    id: 'elevenlabs/eleven-v3',
    displayName: 'Eleven v3',
    maker: 'elevenlabs',
    released: '2025-06-05',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_v3', per1kChars: 0.1, source: ELEVENLABS_PRICING }],
  },
  {
    type: 'audio',
    id: 'elevenlabs/eleven-multilingual-v2',
    displayName: 'Eleven Multilingual v2',
    maker: 'elevenlabs',
    released: '2023-08-22',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_multilingual_v2', per1kChars: 0.1, source: ELEVENLABS_PRICING }],
  },
  {
    type: 'audio',
    id: 'elevenlabs/eleven-flash-v2-5',
    displayName: 'Eleven Flash v2.5',
    maker: 'elevenlabs',
    released: '2024-12-10',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_flash_v2_5', per1kChars: 0.05, source: ELEVENLABS_PRICING }],
  },
  {
    type: 'audio',
    id: 'elevenlabs/eleven-flash-v2',
    displayName: 'Eleven Flash v2 (English)',
    maker: 'elevenlabs',
    released: '2024-12-10',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_flash_v2', per1kChars: 0.05, source: ELEVENLABS_PRICING }],
  },
  {
    type: 'audio',
    id: 'elevenlabs/eleven-turbo-v2-5',
    displayName: 'Eleven Turbo v2.5',
    maker: 'elevenlabs',
    released: '2024-07-19',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_turbo_v2_5', per1kChars: 0.05, source: ELEVENLABS_PRICING }],
  },
  {
    type: 'audio',
    id: 'elevenlabs/eleven-turbo-v2',
    displayName: 'Eleven Turbo v2 (English)',
    maker: 'elevenlabs',
    released: '2023-11-07',
    defaultVoice: VOICE,
    routes: [{ provider: 'elevenlabs', upstreamId: 'eleven_turbo_v2', per1kChars: 0.05, source: ELEVENLABS_PRICING }],
  },
] satisfies readonly CatalogModel[];
