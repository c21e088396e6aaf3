import type { VideoMediaField, VideoModel, VideoRoute } from '../../catalog/types';
import type { VideoInputs } from '../../catalog/video-inputs';
import { GatewayError } from '../../errors';
import type { VideoSend } from '../../providers/renders';
import type { VideoRequest } from './request';

/** What a link in a video request must be when it names a gateway upload (its content type's family). */
export type LinkKind = 'image' | 'video' | 'audio';

/** Every link of a request, by the field that named it and the kind of file that field takes. */
export type VideoLink = { param: string; urls: string[]; kind: LinkKind };

/**
 * The video and audio inputs of a request (`video_url` / `video_urls`, `audio_url` / `audio_urls`,
 * one list per kind), mapped to the fields of the route's endpoint (`VideoRoute.endpoints.media`):
 * a kind the model takes none of is a 400 naming the field that carried it, more than it takes a
 * 400 naming the list, and a required one missing a 400 naming `video_url` / `audio_url`.
 */
export function pickMedia(model: VideoModel, inputs: VideoInputs, route: VideoRoute, request: VideoRequest): { send: Pick<VideoSend, 'video' | 'audio'>; links: VideoLink[] } {
  const media = route.endpoints?.media;
  const video = mediaInput(model, 'video', inputs.videos, media?.video, request.video_url, request.video_urls);
  const audio = mediaInput(model, 'audio', inputs.audios, media?.audio, request.audio_url, request.audio_urls);
  return {
    send: { ...(video.send ? { video: video.send } : {}), ...(audio.send ? { audio: audio.send } : {}) },
    links: [...video.links, ...audio.links],
  };
}

function mediaInput(
  model: VideoModel,
  kind: 'video' | 'audio',
  takes: number,
  field: VideoMediaField<string> | undefined,
  one: string | undefined,
  many: string[] | undefined,
): { send?: { url: string; field: string }; links: VideoLink[] } {
  const param = `${kind}_url`;
  const listParam = `${kind}_urls`;
  const urls = [...(one !== undefined ? [one] : []), ...(many ?? [])];
  if (urls.length === 0) {
    if (field?.required && takes > 0) throw new GatewayError('invalid_request', `${model.id} takes a ${kind} input (${param}), and none was given.`, { param });
    return { links: [] };
  }
  if (takes === 0 || !field) throw new GatewayError('invalid_request', `${model.id} takes no ${kind} input.`, { param: one !== undefined ? param : listParam });
  if (urls.length > takes) {
    throw new GatewayError('invalid_request', `${model.id} takes ${takes} ${kind} input${takes === 1 ? '' : 's'}; ${urls.length} were given.`, { param: many ? listParam : param });
  }
  const links: VideoLink[] = [...(one !== undefined ? [{ param, urls: [one], kind }] : []), ...(many ? [{ param: listParam, urls: many, kind }] : [])];
  return { send: { url: urls[0]!, field: field.field }, links };
}
