import { resolveModel, servingRoutes } from '../../catalog/resolve';
import type { VideoEndpointLack, VideoModel, VideoResolution, VideoRoute } from '../../catalog/types';
import { videoInputs, type AspectRatio, type VideoInputs } from '../../catalog/video-inputs';
import { GatewayError } from '../../errors';
import { MICROS_PER_USD } from '../../money';
import type { VideoOrder, VideoSend } from '../../providers/renders';
import { pickMedia, type VideoLink } from './media-inputs';
import type { VideoRequest } from './request';

/** D7: the duration when the model declares no default. */
const FALLBACK_DURATION = 5;
const DEFAULT_RESOLUTION: VideoResolution = '720p';

/** A checked video request: what its adapter sends (`VideoOrder`), and what the route checks and holds. */
export interface VideoPlan extends VideoOrder {
  request: VideoRequest;
  /** First-frame image, when given. */
  imageUrl: string | undefined;
  /** Every link the request carries, by the request field that named it and the kind it takes (uploads are checked). */
  links: VideoLink[];
  /** Price per second at `resolution` times `duration`, micro-dollars. */
  predictedMicros: number;
}

/**
 * Checks a video request against its model before any money moves or anything is sent: duration
 * in the model's allowed set (D7: 400 naming `duration` and the set), a resolution it renders,
 * references it takes; then the route and the price for the requested seconds.
 */
export function planVideo(request: VideoRequest, env: Env): VideoPlan {
  const model = resolveModel(request.model, 'video');

  if (model.lengthFromInput && request.duration !== undefined) {
    throw new GatewayError('invalid_request', `${model.id} makes a video as long as its input video (up to ${model.defaultDuration} seconds); it takes no duration.`, { param: 'duration' });
  }
  const duration = request.duration ?? model.defaultDuration ?? FALLBACK_DURATION;
  if (!model.durations.includes(duration)) {
    throw new GatewayError('invalid_request', `${model.id} renders ${model.durations.join(', ')} seconds; duration ${duration} is not one of them.`, { param: 'duration' });
  }
  const resolution = request.resolution ?? (model.resolutions.includes(DEFAULT_RESOLUTION) ? DEFAULT_RESOLUTION : model.resolutions[0]!);
  if (!model.resolutions.includes(resolution)) {
    throw new GatewayError('invalid_request', `${model.id} renders ${model.resolutions.join(', ')}; resolution ${resolution} is not one of them.`, { param: 'resolution' });
  }
  const inputs = videoInputs(model);
  const route = servingRoutes(model, env)[0]!;
  const picked = pickEndpoint(model, inputs, route, request);
  const { lacks } = picked;
  const media = pickMedia(model, inputs, route, request);
  const omit = lacks.filter((field): field is 'prompt' | 'duration' => field === 'prompt' || field === 'duration');
  const endpoint: VideoSend = { ...picked.endpoint, ...media.send, ...(omit.length > 0 ? { omit } : {}) };
  const links = [...picked.links, ...media.links];
  refuseUnless(inputs.seed, request.seed, 'seed', `${model.id} takes no seed.`);
  refuseUnless(!lacks.includes('seed'), request.seed, 'seed', `${model.id} takes no seed with these images (its ${endpoint.upstreamId} endpoint has none).`);
  if (request.resolution !== undefined && !inputs.resolution && model.resolutions.length > 1) {
    throw new GatewayError('invalid_request', `${model.id} takes no resolution: its ${endpoint.upstreamId} endpoint has no such field, and the video keeps its input's (${model.resolutions.join(' or ')}).`, { param: 'resolution' });
  }
  if (request.audio !== undefined && inputs.audios > 0 && !inputs.audioSwitch) {
    throw new GatewayError('invalid_request', `${model.id} takes no audio switch: its sound is the audio_url track.`, { param: 'audio' });
  }
  if (request.audio === true && !model.audio) throw new GatewayError('invalid_request', `${model.id} renders no audio.`, { param: 'audio' });
  if (request.audio === false && model.audio && !inputs.audioSwitch) {
    throw new GatewayError('invalid_request', `${model.id} always renders audio; it has no switch to turn it off.`, { param: 'audio' });
  }
  if (route.endpoints?.imageRequired && !endpoint.first && !endpoint.references) {
    throw new GatewayError('invalid_request', `${model.id} animates an image: its ${route.upstreamId} endpoint takes a first frame (image_url), and none was given.`, { param: 'image_url' });
  }
  const aspectRatio = lacks.includes('aspect_ratio') ? refuseRatio(model, endpoint, request.aspect_ratio) : pickAspectRatio(model, inputs, request.aspect_ratio);

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
    imageUrl: endpoint.first?.url,
    endpoint,
    links,
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

/**
 * The endpoint the request's images need, from the route's catalog entry: `image_urls` to the
 * reference endpoint where there is one; a last frame to the first-last-frame endpoint (or the
 * image endpoint's last-frame field); a first frame to the image endpoint; a prompt alone to the
 * route's own. An image input no endpoint of the route takes is a 400 naming it.
 */
function pickEndpoint(model: VideoModel, inputs: VideoInputs, route: VideoRoute, request: VideoRequest): { endpoint: VideoSend; lacks: VideoEndpointLack[]; links: VideoLink[] } {
  const endpoints = route.endpoints ?? {};
  const links: VideoLink[] = [
    ...(request.image_url ? [{ param: 'image_url', urls: [request.image_url], kind: 'image' as const }] : []),
    ...(request.image_urls ? [{ param: 'image_urls', urls: request.image_urls, kind: 'image' as const }] : []),
    ...(request.end_image_url ? [{ param: 'end_image_url', urls: [request.end_image_url], kind: 'image' as const }] : []),
  ];
  const references = endpoints.references;
  if (request.image_urls && references && inputs.images > 0) {
    if (request.image_url) throw new GatewayError('invalid_request', `${model.id} takes reference images (image_urls) or a first frame (image_url), not both.`, { param: 'image_url' });
    if (request.end_image_url) throw new GatewayError('invalid_request', `${model.id} takes no last frame with reference images.`, { param: 'end_image_url' });
    if (request.image_urls.length > references.max) {
      throw new GatewayError('invalid_request', `${model.id} takes up to ${references.max} reference images; ${request.image_urls.length} were given.`, { param: 'image_urls' });
    }
    return { endpoint: { upstreamId: references.upstreamId, references: { urls: request.image_urls, field: references.field } }, lacks: references.lacks ?? [], links };
  }
  const images = [...(request.image_url ? [request.image_url] : []), ...(request.image_urls ?? [])];
  if (images.length > inputs.images) {
    const param = request.image_urls && (inputs.images > 0 || !request.image_url) ? 'image_urls' : 'image_url';
    throw new GatewayError('invalid_request', inputs.images === 0 ? `${model.id} takes no image input.` : `${model.id} takes ${inputs.images} image (the first frame); ${images.length} were given.`, { param });
  }
  const first = images[0];
  if (request.end_image_url !== undefined) {
    const lastFrame = endpoints.firstLast ?? (endpoints.image?.last ? endpoints.image : undefined);
    if (!lastFrame?.last || inputs.images === 0) throw new GatewayError('invalid_request', `${model.id} takes no last frame.`, { param: 'end_image_url' });
    if (!first) throw new GatewayError('invalid_request', `${model.id} takes a last frame only with a first frame (image_url).`, { param: 'end_image_url' });
    const endpoint = { upstreamId: lastFrame.upstreamId, first: { url: first, field: lastFrame.first }, last: { url: request.end_image_url, field: lastFrame.last } };
    return { endpoint, lacks: lastFrame.lacks ?? [], links };
  }
  if (!first) return { endpoint: { upstreamId: route.upstreamId }, lacks: route.lacks ?? [], links };
  const image = endpoints.image;
  return { endpoint: { upstreamId: image?.upstreamId ?? route.upstreamId, first: { url: first, field: image?.first } }, lacks: image?.lacks ?? [], links };
}

/** An endpoint with no `aspect_ratio` follows its image: an asked ratio is a 400 naming it. */
function refuseRatio(model: VideoModel, endpoint: VideoSend, asked: AspectRatio | undefined): undefined {
  if (asked !== undefined) {
    throw new GatewayError('invalid_request', `${model.id} takes no aspect ratio with an image (its ${endpoint.upstreamId} endpoint follows the image).`, { param: 'aspect_ratio' });
  }
  return undefined;
}
