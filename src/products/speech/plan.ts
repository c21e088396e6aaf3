import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { SpeechModel, SpeechRoute } from '../../catalog/types';
import { MICROS_PER_USD } from '../../money';
import type { SpeechInput } from './request';

export interface SpeechPlan {
  model: SpeechModel;
  route: SpeechRoute;
  input: string;
  voice: string;
  /** D16: price per 1,000 characters times characters / 1000, rounded half up once. */
  costMicros: number;
}

/** The model, route, voice and price of a speech request, before any money moves. */
export function planSpeech(request: SpeechInput, env: Env): SpeechPlan {
  const model = resolveModel(request.model, 'audio');
  const route = servingRoutes(model, env)[0]!;
  const characters = [...request.input].length;
  return {
    model,
    route,
    input: request.input,
    voice: request.voice?.trim() || model.defaultVoice,
    costMicros: Math.round((route.per1kChars * MICROS_PER_USD * characters) / 1000),
  };
}
