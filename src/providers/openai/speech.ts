import type { SpeechAdapter } from '../adapters';

/**
 * OpenAI's speech endpoint (https://platform.openai.com/docs/api-reference/audio/createSpeech):
 * `POST /audio/speech` with `model`, `input` (at most 4,096 characters), `voice` and
 * `response_format: mp3`; the answer is the audio itself.
 */
export const openaiSpeech: SpeechAdapter = {
  requestLimit: () => 4096,
  request: ({ text, voice, upstreamId }, { base, apiKey }) => ({
    url: `${base}/audio/speech`,
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: upstreamId, input: text, voice, response_format: 'mp3' }),
  }),
};
