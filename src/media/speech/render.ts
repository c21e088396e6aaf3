import { DEFAULT_UPSTREAM_TIMEOUT_MS, sendUpstream } from '../../chat/upstream';
import { findModel, liveRoutes } from '../../catalog';
import type { SpeechModel, SpeechRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { MICROS_PER_USD } from '../../money';
import { providerBaseUrl, providerKey } from '../../providers/registry';
import type { MediaUpstreamRequest } from '../images/rail';
import type { SpeechInput } from './request';
import { splitForSpeech } from './split';

/** Characters one upstream request takes: OpenAI's documented 4,096; ElevenLabs' per model. */
const REQUEST_LIMITS: Record<string, number> = {
  openai: 4096,
  eleven_v3: 3000,
  eleven_multilingual_v2: 10_000,
};
const ELEVENLABS_DEFAULT_LIMIT = 30_000;
const SPEECH_TIMEOUT_MS = 120_000;
/** Parts rendered at once: keeps a 10,000-character request quick without flooding the provider. */
const PARALLEL_PARTS = 3;

export interface SpeechPlan {
  model: SpeechModel;
  route: SpeechRoute;
  input: string;
  voice: string;
  /** D16: price per 1,000 characters times characters / 1000, rounded half up once. */
  costMicros: number;
}

export function planSpeech(request: SpeechInput, env: Env): SpeechPlan {
  const model = findModel(request.model);
  if (!model) throw new GatewayError('model_not_found', `No model ${request.model}; GET /v1/models lists them.`, { param: 'model' });
  if (model.type !== 'audio') throw new GatewayError('invalid_request', `${model.id} is a ${model.type} model, not a speech model.`, { param: 'model' });
  const route = liveRoutes(model, env)[0];
  if (!route) throw new GatewayError('model_not_found', `${model.id} is not served by this gateway.`, { param: 'model' });
  const characters = [...request.input].length;
  return {
    model,
    route,
    input: request.input,
    voice: request.voice?.trim() || model.defaultVoice,
    costMicros: Math.round((route.per1kChars * MICROS_PER_USD * characters) / 1000),
  };
}

/** Renders the whole input as one MP3: parts within the provider's limit, joined in order. */
export async function renderSpeech(plan: SpeechPlan, env: Env): Promise<Uint8Array> {
  const { provider, upstreamId } = plan.route;
  const apiKey = providerKey(env, provider);
  if (!apiKey) throw new GatewayError('provider_unavailable', `${provider} is not configured.`, { retryAfter: 60 });
  const limit = REQUEST_LIMITS[provider] ?? REQUEST_LIMITS[upstreamId] ?? ELEVENLABS_DEFAULT_LIMIT;
  const parts = splitForSpeech(plan.input, limit);
  const audio: Uint8Array[] = new Array(parts.length);
  for (let start = 0; start < parts.length; start += PARALLEL_PARTS) {
    const batch = parts.slice(start, start + PARALLEL_PARTS);
    const rendered = await Promise.all(batch.map((text) => renderPart(plan, text, providerBaseUrl(env, provider), apiKey, env)));
    rendered.forEach((bytes, i) => (audio[start + i] = i + start === 0 ? bytes : withoutId3(bytes)));
  }
  return concat(audio);
}

async function renderPart(plan: SpeechPlan, text: string, base: string, apiKey: string, env: Env): Promise<Uint8Array> {
  const { provider, upstreamId } = plan.route;
  const request: MediaUpstreamRequest =
    provider === 'elevenlabs'
      ? {
          url: `${base}/text-to-speech/${encodeURIComponent(plan.voice)}?output_format=mp3_44100_128`,
          headers: { 'xi-api-key': apiKey, 'Content-Type': 'application/json', Accept: 'audio/mpeg' },
          body: JSON.stringify({ text, model_id: upstreamId }),
        }
      : {
          url: `${base}/audio/speech`,
          headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: upstreamId, input: text, voice: plan.voice, response_format: 'mp3' }),
        };
  const outcome = await sendUpstream(request, {
    timeoutMs: Math.max(SPEECH_TIMEOUT_MS, Number(env.UPSTREAM_TIMEOUT_MS) || DEFAULT_UPSTREAM_TIMEOUT_MS),
    signal: new AbortController().signal,
    errorMessage: speechErrorMessage,
  });
  if (!outcome.ok) throw outcome.error;
  return new Uint8Array(await outcome.response.arrayBuffer());
}

/** OpenAI's `{error: {message}}` or ElevenLabs' `{detail: {message}}` / `{detail: "..."}`. */
function speechErrorMessage(status: number, body: unknown): string {
  const value = body as { error?: { message?: unknown }; detail?: unknown } | null;
  const detail = value?.detail;
  const message = value?.error?.message ?? (typeof detail === 'object' && detail !== null ? (detail as { message?: unknown }).message : detail);
  return typeof message === 'string' ? message : `HTTP ${status}`;
}

/** A part after the first loses its ID3v2 tag, so the joined file is one stream of MP3 frames. */
function withoutId3(bytes: Uint8Array): Uint8Array {
  if (bytes.length < 10 || bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return bytes;
  const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
  return bytes.subarray(10 + size);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
