import { z } from '@hono/zod-openapi';
import { GatewayError } from '../../errors';
import type { TranscriptionAdapter } from '../adapters';

/** What ElevenLabs answers (https://elevenlabs.io/docs/api-reference/speech-to-text/convert). */
const Answer = z.object({
  language_code: z.string().optional(),
  language_probability: z.number().optional(),
  text: z.string(),
  words: z
    .array(z.object({ text: z.string(), type: z.string().optional(), start: z.number().nullish(), end: z.number().nullish(), speaker_id: z.string().nullish() }))
    .optional(),
});

/**
 * ElevenLabs speech to text: `POST /speech-to-text`, multipart `model_id`, `file` and
 * `language_code`, authenticated by `xi-api-key`; it answers one JSON shape, translated here to
 * OpenAI's: `json` is `{text}`, `text` the text, `verbose_json` OpenAI's verbose shape (language,
 * duration, one segment, the words with their times).
 */
export const elevenlabsTranscription: TranscriptionAdapter = {
  takesPrompt: false,
  request: (order, { base, apiKey }) => ({
    url: `${base}/speech-to-text`,
    headers: { 'xi-api-key': apiKey, Accept: 'application/json' },
    fields: [
      ['model_id', order.upstreamId],
      ...(order.language ? ([['language_code', order.language]] as [string, string][]) : []),
      ...(order.temperature !== undefined ? ([['temperature', String(order.temperature)]] as [string, string][]) : []),
    ],
    fileField: 'file',
  }),
  answer: async (response, order) => {
    const parsed = Answer.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new GatewayError('provider_error', 'ElevenLabs answered a transcript the gateway could not read.');
    const { text, language_code, words = [] } = parsed.data;
    if (order.format === 'text') return { text };
    if (order.format === 'json') return { json: { text } };
    const spoken = words.filter((word) => (word.type ?? 'word') === 'word').map((word) => ({ word: word.text, start: word.start ?? 0, end: word.end ?? 0 }));
    const end = spoken.at(-1)?.end ?? 0;
    return {
      json: {
        task: 'transcribe',
        language: language_code ?? null,
        duration: end,
        text,
        segments: [{ id: 0, seek: 0, start: spoken[0]?.start ?? 0, end, text }],
        words: spoken,
      },
    };
  },
};
