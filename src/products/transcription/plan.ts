import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { TranscriptionModel, TranscriptionRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { longestSeconds } from '../../media/audio-duration';
import { MICROS_PER_USD } from '../../money';
import { adapterOf } from '../../providers/registry';
import type { TranscriptionOrder, TranscriptTokens } from '../../providers/adapters';
import type { TranscriptionInput } from './request';

export interface TranscriptionPlan {
  model: TranscriptionModel;
  route: TranscriptionRoute;
  order: TranscriptionOrder;
}

/** The model, route and upstream order of a transcription, before any money moves. */
export function planTranscription(input: TranscriptionInput, env: Env): TranscriptionPlan {
  const model = resolveModel(input.model, 'transcription');
  const route = servingRoutes(model, env)[0]!;
  if (!model.formats.includes(input.response_format)) {
    throw new GatewayError('invalid_request', `${model.id} answers response_format ${model.formats.join(' or ')}, not ${input.response_format}.`, { param: 'response_format' });
  }
  if (input.prompt && !adapterOf(route.provider, 'transcription')?.takesPrompt) {
    throw new GatewayError('invalid_request', `${model.id} takes no prompt.`, { param: 'prompt' });
  }
  return {
    model,
    route,
    order: { upstreamId: route.upstreamId, language: input.language, prompt: input.prompt, temperature: input.temperature, format: input.response_format },
  };
}

/** Seconds as the maker bills them: whole seconds, rounded up, at least the route's minimum (Groq: 10). */
export function billedSeconds(route: TranscriptionRoute, seconds: number): number {
  // A length read as 3.0000000001 s from a float sum is 3 s.
  return Math.max(route.minimumSeconds ?? 0, Math.ceil(seconds - 1e-6));
}

/** D16: the price of `seconds` of audio, rounded half up once. */
export function secondsCostMicros(route: TranscriptionRoute, seconds: number): number {
  const microsPerHour = Math.round(route.perHour * MICROS_PER_USD);
  return Math.round((billedSeconds(route, seconds) * microsPerHour) / 3600);
}

/**
 * The most a request can be charged (D33): its audio's (`holdSeconds`); where the route bills
 * tokens, the prompt's bytes as text tokens and the model's longest transcript beside it.
 */
export function holdMicros(plan: TranscriptionPlan, bytes: number, measured?: number): number {
  const audio = secondsCostMicros(plan.route, holdSeconds(plan, bytes, measured));
  const prices = plan.route.tokens;
  if (!prices) return audio;
  // Tokens times USD per million tokens is micro-dollars; a token is at least a byte of the prompt.
  const text = new TextEncoder().encode(plan.order.prompt ?? '').length * prices.textInputPerMTok + (plan.model.maxOutputTokens ?? 0) * prices.outputPerMTok;
  return audio + Math.ceil(text);
}

/** D16: the charge for `seconds` of audio, or for the tokens the upstream reported where the route bills tokens. */
export function chargeMicros(plan: TranscriptionPlan, seconds: number, tokens: TranscriptTokens | undefined): number {
  const prices = plan.route.tokens;
  if (!prices || !tokens) return secondsCostMicros(plan.route, seconds);
  return Math.round(tokens.textInput * prices.textInputPerMTok + tokens.audioInput * prices.audioInputPerMTok + tokens.output * prices.outputPerMTok);
}

/**
 * The most a file can be charged (D33): its measured length when the gateway read it already (a
 * file sent in the request), else its size at the lowest bitrate (`longestSeconds`), capped at the
 * model's longest audio (a longer file is refused, never charged).
 */
export function holdSeconds(plan: TranscriptionPlan, bytes: number, measured?: number): number {
  if (measured !== undefined) return measured;
  return Math.min(longestSeconds(bytes), plan.model.maxSeconds ?? Number.POSITIVE_INFINITY);
}

/** The file's size and measured length against the model's limits: a 400 naming `file` (or `file_url`) past them. */
export function checkAudioLimits(plan: TranscriptionPlan, param: string, audio: { bytes: number; seconds?: number }): void {
  const { model } = plan;
  if (audio.bytes === 0) throw new GatewayError('invalid_request', 'The audio file is empty.', { param });
  if (audio.bytes > model.maxBytes) throw new GatewayError('invalid_request', `The audio file is ${audio.bytes} bytes; ${model.id} takes at most ${model.maxBytes}.`, { param });
  if (audio.seconds === undefined) return;
  if (audio.seconds <= 0) throw new GatewayError('invalid_request', 'The audio file holds no audio the gateway can measure.', { param });
  if (model.maxSeconds !== undefined && audio.seconds > model.maxSeconds) {
    throw new GatewayError('invalid_request', `The audio lasts ${Math.ceil(audio.seconds)} s; ${model.id} takes at most ${model.maxSeconds} s.`, { param });
  }
}
