import type { SpeechAdapter } from '../adapters';

/** Characters one request takes, per model (https://elevenlabs.io/docs/models); 30,000 for the rest (Flash, Turbo). */
const REQUEST_LIMITS: Record<string, number> = {
  eleven_v3: 3000,
  eleven_multilingual_v2: 10_000,
};
const DEFAULT_LIMIT = 30_000;

/**
 * ElevenLabs text to speech (https://elevenlabs.io/docs/api-reference/text-to-speech/convert):
 * `POST /text-to-speech/{voice_id}?output_format=mp3_44100_128` with `text` and `model_id`,
 * authenticated by `xi-api-key`; the answer is the audio itself.
 */
export const elevenlabsSpeech: SpeechAdapter = {
  requestLimit: (upstreamId) => REQUEST_LIMITS[upstreamId] ?? DEFAULT_LIMIT,
  request: ({ text, voice, upstreamId }, { base, apiKey }) => ({
    url: `${base}/text-to-speech/${encodeURIComponent(voice)}?output_format=mp3_44100_128`,
    headers: { 'xi-api-key': apiKey, 'Content-Type': 'application/json', Accept: 'audio/mpeg' },
    body: JSON.stringify({ text, model_id: upstreamId }),
  }),
};
