import type { CatalogModel } from '../types';
import { falPage, replicatePage } from './sources';

/**
 * Kuaishou Kling video models on fal and Replicate (`kwaivgi/*`). fal publishes a 5 s price and a
 * per-additional-second price that is exactly 1/5 of it, i.e. a flat per-second rate.
 * Standard = 720p, Pro / Master = 1080p. Kling 2.1 Standard/Pro and 2.5 Turbo Standard are
 * image-to-video only on fal (a start image is required).
 */
export const kuaishou = [
  {
    type: 'video',
    id: 'kuaishou/kling-1.6-standard',
    displayName: 'Kling 1.6 Standard',
    maker: 'kuaishou',
    released: '2024-12-19',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['720p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v1.6/standard/text-to-video',
        perSecond: { '720p': 0.045 },
        source: falPage('fal-ai/kling-video/v1.6/standard/text-to-video'),
        // https://fal.ai/docs/model-api-reference/video-generation-api/kling-video-v1.6-standard (Image To Video):
        // prompt, image_url (required), duration 5/10, negative_prompt, cfg_scale; no aspect_ratio, no last frame.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v1.6/standard/image-to-video', lacks: ['aspect_ratio'] } },
      },
    ],
  },
  {
    type: 'video',
    id: 'kuaishou/kling-2.0-master',
    displayName: 'Kling 2.0 Master',
    maker: 'kuaishou',
    released: '2025-04-15',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2/master/text-to-video',
        perSecond: { '1080p': 0.28 },
        source: falPage('fal-ai/kling-video/v2/master/text-to-video'),
        // https://fal.ai/docs/model-api-reference/video-generation-api/kling-video-v2-master (Image To Video):
        // prompt, image_url (required), duration 5/10, negative_prompt, cfg_scale; no aspect_ratio, no last frame.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2/master/image-to-video', lacks: ['aspect_ratio'] } },
      },
    ],
  },
  {
    // $0.28 per 5 s on fal; Replicate bills standard mode (720p) at $0.05/s.
    type: 'video',
    id: 'kuaishou/kling-2.1-standard',
    displayName: 'Kling 2.1 Standard',
    maker: 'kuaishou',
    released: '2025-05-29',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['720p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2.1/standard/image-to-video',
        perSecond: { '720p': 0.056 },
        source: falPage('fal-ai/kling-video/v2.1/standard/image-to-video'),
        // Kling's image-to-video schema (as 2.1 Pro's, https://fal.ai/models/fal-ai/kling-video/v2.1/pro/image-to-video/llms.txt):
        // image_url required, no aspect_ratio.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2.1/standard/image-to-video', lacks: ['aspect_ratio'] }, imageRequired: true },
      },
      {
        provider: 'replicate',
        upstreamId: 'kwaivgi/kling-v2.1',
        perSecond: { '720p': 0.05 },
        source: replicatePage('kwaivgi/kling-v2.1'),
        // Its schema (https://replicate.com/kwaivgi/kling-v2.1/api): start_image, duration, negative_prompt,
        // mode; no aspect_ratio (it follows the image); end_image only in mode "pro" (1080p, another price),
        // so this standard-mode route takes no last frame.
        endpoints: { image: { upstreamId: 'kwaivgi/kling-v2.1', first: 'start_image', lacks: ['aspect_ratio'] }, imageRequired: true },
      },
    ],
  },
  {
    // $0.49 per 5 s.
    type: 'video',
    id: 'kuaishou/kling-2.1-pro',
    displayName: 'Kling 2.1 Pro',
    maker: 'kuaishou',
    released: '2025-05-29',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2.1/pro/image-to-video',
        perSecond: { '1080p': 0.098 },
        source: falPage('fal-ai/kling-video/v2.1/pro/image-to-video'),
        // The route's endpoint is image-to-video (https://fal.ai/models/fal-ai/kling-video/v2.1/pro/image-to-video/llms.txt:
        // prompt, image_url, duration 5/10, negative_prompt, cfg_scale); the last frame as tail_image_url is the field
        // fal's Kling image-to-video pages list (v1 standard, v2.5 Turbo Pro); the stored copy of 2.1 Pro's page ends
        // before it, so it is taken from those.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2.1/pro/image-to-video', last: 'tail_image_url', lacks: ['aspect_ratio'] }, imageRequired: true },
      },
    ],
  },
  {
    // $1.40 per 5 s.
    type: 'video',
    id: 'kuaishou/kling-2.1-master',
    displayName: 'Kling 2.1 Master',
    maker: 'kuaishou',
    released: '2025-05-29',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2.1/master/text-to-video',
        perSecond: { '1080p': 0.28 },
        source: falPage('fal-ai/kling-video/v2.1/master/text-to-video'),
        // https://fal.ai/models/fal-ai/kling-video/v2.1/master/image-to-video: image_url, duration, negative_prompt, cfg_scale (no aspect_ratio).
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2.1/master/image-to-video', lacks: ['aspect_ratio'] } },
      },
      { provider: 'replicate', upstreamId: 'kwaivgi/kling-v2.1-master', perSecond: { '1080p': 0.28 }, source: replicatePage('kwaivgi/kling-v2.1-master') },
    ],
  },
  {
    // $0.21 per 5 s.
    type: 'video',
    id: 'kuaishou/kling-2.5-turbo-standard',
    displayName: 'Kling 2.5 Turbo Standard',
    maker: 'kuaishou',
    released: '2025-09-23',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['720p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video',
        perSecond: { '720p': 0.042 },
        source: falPage('fal-ai/kling-video/v2.5-turbo/standard/image-to-video'),
        // Kling's image-to-video schema (as 2.1 Pro's, https://fal.ai/models/fal-ai/kling-video/v2.1/pro/image-to-video/llms.txt):
        // image_url required, no aspect_ratio.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2.5-turbo/standard/image-to-video', lacks: ['aspect_ratio'] }, imageRequired: true },
      },
    ],
  },
  {
    // $0.35 per 5 s.
    type: 'video',
    id: 'kuaishou/kling-2.5-turbo-pro',
    displayName: 'Kling 2.5 Turbo Pro',
    maker: 'kuaishou',
    released: '2025-09-23',
    durations: [5, 10],
    defaultDuration: 5,
    resolutions: ['1080p'],
    audio: false,
    imageInput: true,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/v2.5-turbo/pro/text-to-video',
        perSecond: { '1080p': 0.07 },
        source: falPage('fal-ai/kling-video/v2.5-turbo/pro/text-to-video'),
        // https://fal.ai/models/fal-ai/kling-video/v2.5-turbo/pro/image-to-video/llms.txt: image_url, duration,
        // negative_prompt, cfg_scale, and a last frame as tail_image_url; no aspect_ratio.
        endpoints: { image: { upstreamId: 'fal-ai/kling-video/v2.5-turbo/pro/image-to-video', last: 'tail_image_url', lacks: ['aspect_ratio'] } },
      },
      { provider: 'replicate', upstreamId: 'kwaivgi/kling-v2.5-turbo-pro', perSecond: { '1080p': 0.07 }, source: replicatePage('kwaivgi/kling-v2.5-turbo-pro') },
    ],
  },
  {
    // Lip-syncs a video to an audio track. fal's documented input schema
    // (https://fal.ai/models/fal-ai/kling-video/lipsync/audio-to-video/llms.txt,
    // https://fal.ai/docs/model-api-reference/video-generation-api/kling-video-lipsync) has two fields only:
    // video_url (required; .mp4/.mov, up to 100 MB, 2 to 10 s, 720p or 1080p, sides 720 to 1920 px) and
    // audio_url (required; 2 to 60 s, up to 5 MB). No prompt (not sent, announced in x-service-unsupported-params),
    // no duration, resolution, aspect_ratio, seed or audio switch: the output keeps the input video's length and
    // resolution, and its sound is the audio track, so those fields are 400s naming them. fal bills $0.014 per
    // second of input video, rounded up to the next 5 s: the hold is the longest input, 10 s x $0.014 = $0.14;
    // the charge is the output's seconds, rounded up to 5 s, where fal reports them (its documented output File
    // carries only the url, so with no length reported the hold is charged).
    // Release: the lip-sync feature of Kling 1.6's app; fal's page gives no date.
    type: 'video',
    id: 'kuaishou/kling-lipsync',
    displayName: 'Kling LipSync (audio to video)',
    maker: 'kuaishou',
    released: '2024-12-19',
    durations: [10],
    defaultDuration: 10,
    lengthFromInput: { roundUpTo: 5 },
    // The input video's resolutions (the output keeps its input's; a requested one is refused).
    resolutions: ['720p', '1080p'],
    // The video carries the given audio track (no switch: an asked `audio` is refused).
    audio: true,
    imageInput: false,
    routes: [
      {
        provider: 'fal',
        upstreamId: 'fal-ai/kling-video/lipsync/audio-to-video',
        perSecond: { '720p': 0.014, '1080p': 0.014 },
        source: falPage('fal-ai/kling-video/lipsync/audio-to-video'),
        lacks: ['prompt', 'duration'],
        endpoints: { media: { video: { field: 'video_url', required: true }, audio: { field: 'audio_url', required: true } } },
      },
    ],
  },
] satisfies readonly CatalogModel[];
