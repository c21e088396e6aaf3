import { findModel, liveRoutes } from '../../catalog';
import type { VideoModel, VideoResolution, VideoRoute } from '../../catalog/types';
import { videoInputs, type AspectRatio, type VideoInputs } from '../../catalog/video-inputs';
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
  /** The ratio to send; undefined when the model takes none (it follows its input). */
  aspectRatio: AspectRatio | undefined;
  /** What the model's endpoint takes (the rail sends only these). */
  inputs: VideoInputs;
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
  const inputs = videoInputs(model);
  const images = [...(request.image_url ? [request.image_url] : []), ...(request.image_urls ?? [])];
  if (images.length > inputs.images) {
    const param = request.image_urls && (inputs.images > 0 || !request.image_url) ? 'image_urls' : 'image_url';
    throw new GatewayError('invalid_request', inputs.images === 0 ? `${model.id} takes no image input.` : `${model.id} takes ${inputs.images} image (the first frame); ${images.length} were given.`, { param });
  }
  refuseUnless(inputs.endImage, request.end_image_url, 'end_image_url', `${model.id} takes no last frame.`);
  refuseUnless(inputs.videos > 0, request.video_url, 'video_url', `${model.id} takes no video input.`);
  refuseUnless(inputs.videos > 0, request.video_urls, 'video_urls', `${model.id} takes no video input.`);
  refuseUnless(inputs.audios > 0, request.audio_url, 'audio_url', `${model.id} takes no audio input.`);
  refuseUnless(inputs.audios > 0, request.audio_urls, 'audio_urls', `${model.id} takes no audio input.`);
  refuseUnless(inputs.seed, request.seed, 'seed', `${model.id} takes no seed.`);
  if (request.audio === true && !model.audio) throw new GatewayError('invalid_request', `${model.id} renders no audio.`, { param: 'audio' });
  if (request.audio === false && model.audio && !inputs.audioSwitch) {
    throw new GatewayError('invalid_request', `${model.id} always renders audio; it has no switch to turn it off.`, { param: 'audio' });
  }
  const aspectRatio = pickAspectRatio(model, inputs, request.aspect_ratio);

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
    aspectRatio,
    inputs,
    imageUrl: images[0],
    predictedMicros: Math.round(perSecond * MICROS_PER_USD * duration),
  };
}

function refuseUnless(takes: boolean, value: unknown, param: string, message: string): void {
  if (!takes && value !== undefined) throw new GatewayError('invalid_request', message, { param });
}

/** The asked ratio when the model renders it (400 naming `aspect_ratio` when not), else 16:9 where it takes one. */
function pickAspectRatio(model: VideoModel, inputs: VideoInputs, asked: AspectRatio | undefined): AspectRatio | undefined {
  if (asked === undefined) return inputs.aspectRatios.includes('16:9') ? '16:9' : inputs.aspectRatios[0];
  if (!inputs.aspectRatios.includes(asked)) {
    const takes = inputs.aspectRatios.length > 0 ? `renders ${inputs.aspectRatios.join(', ')}` : 'takes no aspect ratio (it follows its input)';
    throw new GatewayError('invalid_request', `${model.id} ${takes}; aspect_ratio ${asked} is not one of them.`, { param: 'aspect_ratio' });
  }
  return asked;
}
