import { findModel, liveRoutes } from '../../catalog';
import type { VideoModel, VideoResolution, VideoRoute } from '../../catalog/types';
import { GatewayError } from '../../errors';
import { MICROS_PER_USD } from '../../money';
import type { VideoRequest } from './request';

/** Providers whose video rail is built. */
export const VIDEO_RAILS: ReadonlySet<string> = new Set(['openai', 'fal', 'replicate']);

/** D7: the duration when the model declares no default. */
const FALLBACK_DURATION = 5;
const DEFAULT_RESOLUTION: VideoResolution = '720p';

export interface VideoPlan {
  model: VideoModel;
  route: VideoRoute;
  request: VideoRequest;
  duration: number;
  resolution: VideoResolution;
  aspectRatio: string;
  /** First-frame image, when given. */
  imageUrl: string | undefined;
  /** Price per second at `resolution` times `duration`, micro-dollars. */
  predictedMicros: number;
}

/**
 * Checks a video request against its model before any money moves or anything is sent: duration
 * in the model's allowed set (D7: 400 naming `duration` and the set), a resolution it renders,
 * references it takes; then the route and the price for the requested seconds.
 */
export function planVideo(request: VideoRequest, env: Env): VideoPlan {
  const model = findModel(request.model);
  if (!model) throw new GatewayError('model_not_found', `No model ${request.model}; GET /v1/models lists them.`, { param: 'model' });
  if (model.type !== 'video') throw new GatewayError('invalid_request', `${model.id} is a ${model.type} model, not a video model.`, { param: 'model' });

  const duration = request.duration ?? model.defaultDuration ?? FALLBACK_DURATION;
  if (!model.durations.includes(duration)) {
    throw new GatewayError('invalid_request', `${model.id} renders ${model.durations.join(', ')} seconds; duration ${duration} is not one of them.`, { param: 'duration' });
  }
  const resolution = request.resolution ?? (model.resolutions.includes(DEFAULT_RESOLUTION) ? DEFAULT_RESOLUTION : model.resolutions[0]!);
  if (!model.resolutions.includes(resolution)) {
    throw new GatewayError('invalid_request', `${model.id} renders ${model.resolutions.join(', ')}; resolution ${resolution} is not one of them.`, { param: 'resolution' });
  }
  const images = [...(request.image_url ? [request.image_url] : []), ...(request.image_urls ?? [])];
  if (images.length > 0 && !model.imageInput) throw new GatewayError('invalid_request', `${model.id} takes no image input.`, { param: request.image_url ? 'image_url' : 'image_urls' });
  for (const param of ['end_image_url', 'video_url', 'video_urls', 'audio_url', 'audio_urls'] as const) {
    if (request[param] !== undefined) throw new GatewayError('invalid_request', `${model.id} takes no ${param} on this gateway yet.`, { param });
  }
  if (request.audio === true && !model.audio) throw new GatewayError('invalid_request', `${model.id} renders no audio.`, { param: 'audio' });

  const configured = liveRoutes(model, env);
  const route = configured.find((candidate) => VIDEO_RAILS.has(candidate.provider));
  if (!route) {
    const why = configured.length > 0 ? ` (no video rail for ${configured[0]!.provider} yet)` : '';
    throw new GatewayError('model_not_found', `${model.id} is not served by this gateway${why}.`, { param: 'model' });
  }
  const perSecond = typeof route.perSecond === 'number' ? route.perSecond : route.perSecond[resolution];
  if (perSecond === undefined) throw new GatewayError('invalid_request', `No price for ${resolution} on this model.`, { param: 'resolution' });
  return {
    model,
    route,
    request,
    duration,
    resolution,
    aspectRatio: request.aspect_ratio ?? '16:9',
    imageUrl: images[0],
    predictedMicros: Math.round(perSecond * MICROS_PER_USD * duration),
  };
}
