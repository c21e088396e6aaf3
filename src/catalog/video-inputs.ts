import type { VideoModel } from './types';

export type AspectRatio = '16:9' | '4:3' | '1:1' | '3:4' | '9:16' | '21:9';

/**
 * The inputs a video model's endpoint takes, beyond prompt and duration, from its provider's
 * documented input schema. Where the docs are silent the model does not take it: planVideo refuses
 * the field with 400 naming it rather than dropping it.
 */
export interface VideoInputs {
  /** Aspect ratios the model renders; empty when it takes no aspect ratio (it follows the input). */
  aspectRatios: readonly AspectRatio[];
  /** Takes `generate_audio` (sound on or off); a model that renders sound without one cannot turn it off. */
  audioSwitch: boolean;
  /** Takes `seed`. */
  seed: boolean;
  /** Takes a `resolution` field (models with one fixed resolution take none). */
  resolution: boolean;
  /** Images in one request: the first frame (0 when it takes none). The route's endpoints name their fields. */
  images: number;
  /** Video inputs it takes (`video_url(s)`). */
  videos: number;
  /** Audio inputs it takes (`audio_url(s)`). */
  audios: number;
}

const NONE = { videos: 0, audios: 0, audioSwitch: false } as const;

/**
 * Per model family, with the documentation each entry follows (checked again against fal's model
 * pages and Replicate's input schemas; the endpoints a request with images goes to, and the fields
 * those lack, are per route in the catalog: `VideoRoute.endpoints`).
 * - OpenAI sora-2 / sora-2-pro (https://platform.openai.com/docs/api-reference/videos/create):
 *   `size` 720x1280 or 1280x720 (sora-2-pro also 1024x1792 / 1792x1024, not priced here), one
 *   `input_reference` image, `seconds` 4/8/12; no seed, no audio switch, no last frame.
 * - fal Veo 3 / 3.1 (https://fal.ai/models/fal-ai/veo3.1/api, https://fal.ai/models/fal-ai/veo3/api):
 *   `aspect_ratio` 16:9 or 9:16, `resolution`, `generate_audio`, `seed`. The first frame goes to
 *   `…/image-to-video` as `image_url` (Veo 3's has no seed); Veo 3.1 also has
 *   `…/first-last-frame-to-video` (`first_frame_url`, `last_frame_url`, no seed) and, not Fast,
 *   `…/reference-to-video` (`image_urls`, no seed)
 *   (https://fal.ai/docs/model-api-reference/video-generation-api/veo3.1-reference-to-video).
 * - fal Kling (https://fal.ai/models/fal-ai/kling-video/v2.1/pro/image-to-video/llms.txt and the
 *   text-to-video pages): text-to-video takes `aspect_ratio` 16:9, 9:16, 1:1, `negative_prompt`,
 *   `cfg_scale`; image-to-video takes `image_url` and no `aspect_ratio`, 2.1 Pro's also a last frame
 *   as `tail_image_url`; no seed, no resolution (fixed per tier). Replicate's kwaivgi/kling-v2.1
 *   (https://replicate.com/kwaivgi/kling-v2.1/api) is image-to-video: `start_image` (required),
 *   no `aspect_ratio`, no seed, `end_image` in mode "pro" only.
 * - fal Seedance 1 / 1.5 Pro (https://fal.ai/models/fal-ai/bytedance/seedance/v1/pro/image-to-video/llms.txt):
 *   `aspect_ratio` 21:9, 16:9, 4:3, 1:1, 3:4, 9:16 (image-to-video also `auto`), `resolution`,
 *   `seed`, `camera_fixed`; 1.5 Pro also `generate_audio`. Confirmed.
 * - fal Wan 2.2 A14B (https://fal.ai/models/fal-ai/wan/v2.2-a14b/image-to-video/llms.txt): `aspect_ratio`
 *   16:9, 9:16, 1:1, `resolution` 480p/580p/720p, `seed`, `image_url` on image-to-video. Confirmed.
 * - fal Luma Ray 2 (https://fal.ai/models/fal-ai/luma-dream-machine/ray-2-flash/image-to-video/llms.txt):
 *   `aspect_ratio` 16:9, 9:16, 4:3, 3:4, 21:9, 9:21, `resolution` 540p/720p/1080p, `loop`; no seed.
 *   Ray 2 Flash's image-to-video takes `image_url` and `end_image_url`. Confirmed.
 * - fal Hailuo 02 (https://fal.ai/models/fal-ai/minimax/hailuo-02/standard/image-to-video/llms.txt):
 *   `prompt_optimizer` and `duration`: no aspect ratio or seed; Standard's image-to-video takes
 *   `image_url` and `end_image_url` (and a `resolution` 512P/768P this gateway does not send); Pro's
 *   (https://fal.ai/models/fal-ai/minimax/hailuo-02/pro/image-to-video/llms.txt) the same two, no duration.
 * - fal Kling LipSync (https://fal.ai/models/fal-ai/kling-video/lipsync/audio-to-video/llms.txt): one
 *   `video_url` and one `audio_url`, both required; nothing else: no prompt, duration, resolution,
 *   aspect ratio, seed or `generate_audio` (the output keeps the input video's length and resolution,
 *   and its sound is the audio track), so planVideo refuses each of them with 400 naming it.
 */
const FAMILIES: readonly { prefix: string; inputs: VideoInputs }[] = [
  { prefix: 'kuaishou/kling-lipsync', inputs: { aspectRatios: [], audioSwitch: false, seed: false, resolution: false, images: 0, videos: 1, audios: 1 } },
  { prefix: 'openai/sora-2', inputs: { ...NONE, aspectRatios: ['16:9', '9:16'], seed: false, resolution: false, images: 1 } },
  { prefix: 'google/veo-3', inputs: { ...NONE, aspectRatios: ['16:9', '9:16'], audioSwitch: true, seed: true, resolution: true, images: 1 } },
  { prefix: 'kuaishou/kling-', inputs: { ...NONE, aspectRatios: ['16:9', '9:16', '1:1'], seed: false, resolution: false, images: 1 } },
  { prefix: 'bytedance/seedance-', inputs: { ...NONE, aspectRatios: ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'], audioSwitch: true, seed: true, resolution: true, images: 1 } },
  { prefix: 'alibaba/wan-', inputs: { ...NONE, aspectRatios: ['16:9', '9:16', '1:1'], seed: true, resolution: true, images: 1 } },
  { prefix: 'luma/ray-', inputs: { ...NONE, aspectRatios: ['16:9', '9:16', '4:3', '3:4', '21:9'], seed: false, resolution: true, images: 1 } },
  { prefix: 'minimax/hailuo-', inputs: { ...NONE, aspectRatios: [], seed: false, resolution: false, images: 1 } },
];

/** What the rail may send for a model; a model of no known family takes nothing beyond the prompt. */
export function videoInputs(model: VideoModel): VideoInputs {
  const family = FAMILIES.find((entry) => model.id.startsWith(entry.prefix))?.inputs;
  const inputs = family ?? { ...NONE, aspectRatios: [], seed: false, resolution: false, images: 0 };
  return { ...inputs, images: model.imageInput ? inputs.images : 0, audioSwitch: inputs.audioSwitch && model.audio };
}
