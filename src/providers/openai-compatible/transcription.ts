import { GatewayError } from '../../errors';
import type { TranscriptionAdapter } from '../adapters';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAI's transcriptions endpoint, as OpenAI and Groq serve it
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription,
 * https://console.groq.com/docs/speech-to-text): `POST /audio/transcriptions`, multipart `file`,
 * `model`, `language`, `prompt`, `response_format`. The upstream is asked for JSON (`json`, or
 * `verbose_json` when that is asked): the GPT-4o transcribers answer nothing else, and `text` is
 * the JSON's `text`, so every model answers the three formats alike.
 */
export function openAIShapedTranscription(): TranscriptionAdapter {
  return {
    takesPrompt: true,
    request: (order, { base, apiKey }) => ({
      url: `${base}/audio/transcriptions`,
      headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
      fields: [
        ['model', order.upstreamId],
        ...(order.language ? ([['language', order.language]] as [string, string][]) : []),
        ...(order.prompt ? ([['prompt', order.prompt]] as [string, string][]) : []),
        ...(order.temperature !== undefined ? ([['temperature', String(order.temperature)]] as [string, string][]) : []),
        ['response_format', order.format === 'verbose_json' ? 'verbose_json' : 'json'],
      ],
      fileField: 'file',
    }),
    answer: async (response, order) => {
      const body: unknown = await response.json().catch(() => undefined);
      if (!isObject(body) || typeof body.text !== 'string') throw new GatewayError('provider_error', 'The provider answered a transcript the gateway could not read.');
      return order.format === 'text' ? { text: body.text } : { json: body };
    },
  };
}
