import type { CatalogModel } from '../types';
import { ELEVENLABS_STT_PRICING, GROQ_SPEECH_TEXT, groqModelPage, OPENAI_PRICING } from './sources';

const MB = 1024 * 1024;
/** The gateway streams at most 25 MB of audio per request (OpenAI's and Groq's free-tier file limit). */
const MAX_BYTES = 25 * MB;

/**
 * Speech to text (`POST /v1/audio/transcriptions`), billed per second of audio the gateway
 * measures. Prices per hour (OpenAI's per minute x 60):
 * - OpenAI (developers.openai.com/api/docs/pricing, "Transcription"): whisper-1 $0.006 / minute.
 *   The GPT-4o transcribers bill tokens (same page, "Audio tokens" and "Text tokens" per 1M:
 *   gpt-4o-transcribe audio input $6, text input $2.50, output $10; gpt-4o-mini-transcribe $3,
 *   $1.25, $5), and their estimates of $0.006 and $0.003 / minute price the audio's tokens alone
 *   (1,000 a minute): the transcript's output tokens come on top, up to 2,000 (the models' cap),
 *   and a prompt's text tokens too. They take at most 1,500 seconds and answer `json` or `text`.
 * - Groq: whisper-large-v3 $0.111 and whisper-large-v3-turbo $0.04 / hour, both confirmed from
 *   the stored https://console.groq.com/docs/speech-text ("Cost Per Hour") and the turbo's model
 *   page; at least 10 seconds billed per request, which no stored Groq page states (kept as
 *   Groq's documented minimum; re-check).
 * - ElevenLabs Scribe v1 (elevenlabs.io/pricing/api): $0.22 / hour.
 */
export const transcription = [
  {
    type: 'transcription',
    id: 'openai/gpt-4o-transcribe',
    displayName: 'GPT-4o Transcribe',
    maker: 'openai',
    released: '2025-03-20',
    maxBytes: MAX_BYTES,
    maxSeconds: 1500,
    formats: ['json', 'text'],
    maxOutputTokens: 2000,
    routes: [{ provider: 'openai', upstreamId: 'gpt-4o-transcribe', perHour: 0.36, tokens: { textInputPerMTok: 2.5, audioInputPerMTok: 6, outputPerMTok: 10 }, source: OPENAI_PRICING }],
  },
  {
    type: 'transcription',
    id: 'openai/gpt-4o-mini-transcribe',
    displayName: 'GPT-4o mini Transcribe',
    maker: 'openai',
    released: '2025-03-20',
    maxBytes: MAX_BYTES,
    maxSeconds: 1500,
    formats: ['json', 'text'],
    maxOutputTokens: 2000,
    routes: [{ provider: 'openai', upstreamId: 'gpt-4o-mini-transcribe', perHour: 0.18, tokens: { textInputPerMTok: 1.25, audioInputPerMTok: 3, outputPerMTok: 5 }, source: OPENAI_PRICING }],
  },
  {
    type: 'transcription',
    id: 'openai/whisper-1',
    displayName: 'Whisper',
    maker: 'openai',
    released: '2023-03-01',
    maxBytes: MAX_BYTES,
    formats: ['json', 'text', 'verbose_json'],
    routes: [{ provider: 'openai', upstreamId: 'whisper-1', perHour: 0.36, source: OPENAI_PRICING }],
  },
  {
    type: 'transcription',
    id: 'openai/whisper-large-v3',
    displayName: 'Whisper Large v3',
    maker: 'openai',
    released: '2023-11-06',
    maxBytes: MAX_BYTES,
    formats: ['json', 'text', 'verbose_json'],
    routes: [{ provider: 'groq', upstreamId: 'whisper-large-v3', perHour: 0.111, minimumSeconds: 10, source: GROQ_SPEECH_TEXT }],
  },
  {
    type: 'transcription',
    id: 'openai/whisper-large-v3-turbo',
    displayName: 'Whisper Large v3 Turbo',
    maker: 'openai',
    released: '2024-10-01',
    maxBytes: MAX_BYTES,
    formats: ['json', 'text', 'verbose_json'],
    routes: [{ provider: 'groq', upstreamId: 'whisper-large-v3-turbo', perHour: 0.04, minimumSeconds: 10, source: groqModelPage('whisper-large-v3-turbo') }],
  },
  {
    type: 'transcription',
    id: 'elevenlabs/scribe-v1',
    displayName: 'Scribe v1',
    maker: 'elevenlabs',
    released: '2025-02-26',
    maxBytes: MAX_BYTES,
    formats: ['json', 'text', 'verbose_json'],
    routes: [{ provider: 'elevenlabs', upstreamId: 'scribe_v1', perHour: 0.22, source: ELEVENLABS_STT_PRICING }],
  },
] satisfies readonly CatalogModel[];
