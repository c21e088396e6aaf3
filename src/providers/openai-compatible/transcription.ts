import { GatewayError } from '../../errors';
import type { TranscriptionAdapter, TranscriptTokens } from '../adapters';

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
      const tokens = billedTokens(body.usage);
      return { ...(order.format === 'text' ? { text: body.text } : { json: body }), ...(tokens && { tokens }) };
    },
  };
}

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : 0);

/**
 * The tokens of a `usage` of type `tokens` (the GPT-4o transcribers'): input split into text and
 * audio where the details say, else all counted as audio (the dearer); undefined for any other
 * usage (`duration`, none).
 */
function billedTokens(usage: unknown): TranscriptTokens | undefined {
  if (!isObject(usage) || usage.type !== 'tokens') return undefined;
  const details = isObject(usage.input_token_details) ? usage.input_token_details : undefined;
  const input = count(usage.input_tokens);
  const textInput = details ? count(details.text_tokens) : 0;
  const audioInput = details ? Math.max(count(details.audio_tokens), input - textInput) : input;
  return { textInput, audioInput, output: count(usage.output_tokens) };
}
