/**
 * A local stand-in for fal.ai's queue API (https://docs.fal.ai/model-endpoints/queue), as image
 * models answer it: submit `POST /{model_id}` (`Authorization: Key <key>`, the model id may carry
 * a sub-path, e.g. `fal-ai/flux/dev`) answers `{request_id, response_url, status_url, cancel_url,
 * queue_position}`; the status, result and cancel URLs use only the owner and app
 * (`/fal-ai/flux/requests/{id}/status`), as fal's docs say, and clients must use them as returned.
 * Status goes IN_QUEUE (202), IN_PROGRESS (202), COMPLETED (200); the result is
 * `{images: [{url, width, height, content_type}], seed, has_nsfw_concepts, prompt, timings}` with
 * the files served here (playing fal's CDN). A prompt with `[fail]` completes with an error: the
 * status carries `error` and `error_type`, and the result answers 422 with `detail`, as fal does
 * for a request its model refused. A prompt with `[fail-runner]` fails in the runner: its status
 * is `COMPLETED` with `error` and `error_type: runner_server_error`, its result answers 500 with
 * `detail`; one with `[503-once]` has its first status poll answered 503 without a body. A video
 * request (to a video endpoint of `VIDEO_SCHEMAS`, or any input with a `duration`) completes with
 * `{video: {url, content_type, file_size}}`: a 3 MB MP4, served without `Content-Length` for a
 * prompt with `[chunked]`; a lip-sync output of an input video named with `?seconds=N` is an MP4
 * whose own `moov/mvhd` says N seconds (`inputSeconds`). A video input with a field or aspect ratio its endpoint's page does not
 * list, or without the image, video or audio an endpoint requires, is refused with 422
 * (`checkVideoInput`); `prompt` is required only where the endpoint's schema has one.
 * Test hook (not fal's): `GET /__requests/{request_id}` answers `{model_id, input}` as submitted.
 */
import type { ServerResponse } from 'node:http';
import { sendMp4 } from './mp4';
import { png } from './openai-images';
import { troubleOnce } from './scenarios';
import { sendJson, startUpstream, type Upstream } from './server';

export interface FalUpstream extends Upstream {
  /** The PNGs served, base64, in order. */
  served: string[];
}

interface QueuedRequest {
  app: string;
  modelId: string;
  video: boolean;
  input: Record<string, unknown>;
  polls: number;
  files: string[];
}

/** Polls before a request completes: one IN_QUEUE, one IN_PROGRESS. */
const POLLS_TO_COMPLETE = 2;

export async function startFalUpstream(apiKey = 'fal-test-key'): Promise<FalUpstream> {
  const queued = new Map<string, QueuedRequest>();
  const files = new Map<string, Buffer>();
  const videos = new Map<string, { size: number; seed: number; withLength: boolean; seconds: number | undefined }>();
  const served: string[] = [];
  let url = '';
  let sequence = 0;
  const troubled = new Set<string>();

  const upstream = await startUpstream((request, res) => {
    const path = request.path.split('?')[0]!;
    const video = videos.get(path);
    if (request.method === 'GET' && video) return sendMp4(res, video.size, video.seed, { range: request.headers.range, withLength: video.withLength, seconds: video.seconds });
    if (request.method === 'GET' && path.startsWith('/files/')) return serveFile(res, files.get(path));
    if (request.headers.authorization !== `Key ${apiKey}`) return sendJson(res, 401, { detail: 'Invalid API key' });
    const submitted = /^\/__requests\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && submitted) {
      const job = queued.get(submitted[1]!);
      return job ? sendJson(res, 200, { model_id: job.modelId, input: job.input }) : sendJson(res, 404, { detail: 'Request not found' });
    }

    const requestPath = /^\/([^/]+\/[^/]+)\/requests\/([^/]+)(\/status)?$/.exec(path);
    if (request.method === 'GET' && requestPath) {
      const [, app, id, status] = requestPath;
      const job = queued.get(id!);
      if (!job || job.app !== app) return sendJson(res, 404, { detail: 'Request not found' });
      return status ? answerStatus(res, id!, job) : answerResult(res, job);
    }
    if (request.method === 'POST') {
      const modelId = path.slice(1);
      const [owner, app] = modelId.split('/');
      if (!owner || !app) return sendJson(res, 404, { detail: 'Application not found' });
      const input = (request.body ?? {}) as Record<string, unknown>;
      const schema = videoSchema(modelId);
      const promptRequired = !schema || schema.fields.includes('prompt');
      if (promptRequired && (typeof input.prompt !== 'string' || input.prompt.length === 0)) {
        return sendJson(res, 422, { detail: [{ loc: ['body', 'prompt'], msg: 'field required', type: 'value_error.missing' }] });
      }
      const refused = schema ? checkVideoInput(schema, input) : undefined;
      if (refused) return sendJson(res, 422, { detail: [refused] });
      const id = `req-${++sequence}`;
      queued.set(id, { app: `${owner}/${app}`, modelId, video: schema !== undefined || input.duration !== undefined, input, polls: 0, files: [] });
      const base = `${url}/${owner}/${app}/requests/${id}`;
      return sendJson(res, 200, { request_id: id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel`, queue_position: 0 });
    }
    sendJson(res, 405, { detail: 'Method not allowed' });
  });
  url = upstream.url;

  function answerStatus(res: ServerResponse, id: string, job: QueuedRequest) {
    if (troubleOnce(job.input.prompt, troubled, id)) return void res.writeHead(503).end();
    job.polls++;
    const base = `${url}/${job.app}/requests/${id}`;
    if (job.polls <= POLLS_TO_COMPLETE) {
      return sendJson(res, 202, { status: job.polls === 1 ? 'IN_QUEUE' : 'IN_PROGRESS', queue_position: job.polls === 1 ? 1 : undefined, response_url: base, logs: null });
    }
    if (String(job.input.prompt).includes('[fail-runner]')) {
      return sendJson(res, 200, { status: 'COMPLETED', response_url: base, logs: null, error: 'Runner failed: CUDA out of memory.', error_type: 'runner_server_error' });
    }
    const failed = String(job.input.prompt).includes('[fail]');
    return sendJson(res, 200, {
      status: 'COMPLETED',
      response_url: base,
      logs: null,
      metrics: { inference_time: 1.2 },
      ...(failed ? { error: 'Image generation failed: the prompt was refused.', error_type: 'content_policy_violation' } : {}),
    });
  }

  function answerResult(res: ServerResponse, job: QueuedRequest) {
    if (job.polls <= POLLS_TO_COMPLETE) return sendJson(res, 400, { detail: 'Request is still in progress' });
    if (String(job.input.prompt).includes('[fail-runner]')) return sendJson(res, 500, { detail: 'Runner failed: CUDA out of memory.', error_type: 'runner_server_error' });
    if (String(job.input.prompt).includes('[fail]')) {
      return sendJson(res, 422, { detail: [{ loc: ['body', 'prompt'], msg: 'Image generation failed: the prompt was refused.', type: 'content_policy_violation' }] });
    }
    if (job.video) {
      const path = `/files/${job.app.replace('/', '-')}-video-${videos.size}.mp4`;
      const size = 3 * 1024 * 1024;
      videos.set(path, { size, seed: videos.size, withLength: !String(job.input.prompt).includes('[chunked]'), seconds: inputSeconds(job.input) });
      // fal's File carries the url, type and size, not a length: the MP4's own mvhd says it.
      return sendJson(res, 200, { video: { url: `${url}${path}`, content_type: 'video/mp4', file_size: size } });
    }
    const size = (job.input.image_size ?? { width: 1024, height: 768 }) as { width: number; height: number };
    const count = Number(job.input.num_images ?? 1);
    if (job.files.length === 0) {
      for (let i = 0; i < count; i++) {
        const bytes = png(size.width, size.height, `${job.app}|${String(job.input.prompt)}|${i}`);
        const path = `/files/${job.app.replace('/', '-')}-${files.size}.png`;
        files.set(path, bytes);
        served.push(bytes.toString('base64'));
        job.files.push(path);
      }
    }
    sendJson(res, 200, {
      images: job.files.map((path) => ({ url: `${url}${path}`, width: size.width, height: size.height, content_type: 'image/png' })),
      seed: 42,
      has_nsfw_concepts: job.files.map(() => false),
      prompt: job.input.prompt,
      timings: { inference: 1.2 },
    });
  }

  return { ...upstream, served };
}

/**
 * Test hook: a lip-sync input video named with `?seconds=N` plays a video of N seconds, and the
 * output MP4 is that long (its `moov/mvhd` says so, after the media data); any other output has no index.
 */
function inputSeconds(input: Record<string, unknown>): number | undefined {
  const seconds = typeof input.video_url === 'string' ? /[?&]seconds=(\d+(?:\.\d+)?)/.exec(input.video_url)?.[1] : undefined;
  return seconds ? Number(seconds) : undefined;
}

function serveFile(res: ServerResponse, bytes: Buffer | undefined): void {
  if (!bytes) return sendJson(res, 404, { detail: 'Not found' });
  res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) });
  res.end(bytes);
}

/**
 * A video endpoint's documented input fields, required image fields and aspect ratios, per
 * endpoint (fal's model API pages; the first match wins, so image endpoints come before their
 * family's text endpoint): an extra field, a missing image or a ratio the endpoint does not list
 * is a 422 `detail` as fal answers, so a misnamed field or a request sent to the wrong endpoint
 * (an image to a text-to-video one) fails the test that sends it.
 */
const VEO = ['prompt', 'duration', 'aspect_ratio', 'resolution', 'generate_audio', 'negative_prompt'];
const KLING = ['prompt', 'duration', 'negative_prompt', 'cfg_scale'];
const SEEDANCE = ['prompt', 'duration', 'aspect_ratio', 'resolution', 'generate_audio', 'seed', 'camera_fixed'];
const SEEDANCE_RATIOS = ['21:9', '16:9', '4:3', '1:1', '3:4', '9:16'];
const LUMA = ['prompt', 'duration', 'aspect_ratio', 'resolution', 'loop'];
const LUMA_RATIOS = ['16:9', '9:16', '4:3', '3:4', '21:9', '9:21'];
interface VideoSchema {
  match: RegExp;
  fields: string[];
  required?: string[];
  ratios: string[];
}

const VIDEO_SCHEMAS: VideoSchema[] = [
  { match: /\/veo3\.1(\/fast)?\/first-last-frame-to-video$/, fields: [...VEO, 'first_frame_url', 'last_frame_url'], required: ['first_frame_url', 'last_frame_url'], ratios: ['auto', '16:9', '9:16'] },
  { match: /\/veo3\.1\/reference-to-video$/, fields: [...VEO.filter((field) => field !== 'negative_prompt'), 'image_urls'], required: ['image_urls'], ratios: ['16:9', '9:16'] },
  { match: /\/veo3\.1(\/fast)?\/image-to-video$/, fields: [...VEO, 'seed', 'image_url'], required: ['image_url'], ratios: ['auto', '16:9', '9:16'] },
  { match: /\/veo3(\/fast)?\/image-to-video$/, fields: [...VEO, 'image_url'], required: ['image_url'], ratios: ['auto', '16:9', '9:16'] },
  { match: /\/veo3/, fields: [...VEO, 'seed'], ratios: ['16:9', '9:16'] },
  { match: /\/kling-video\/(v2\.1|v2\.5-turbo)\/pro\/image-to-video$/, fields: [...KLING, 'image_url', 'tail_image_url'], required: ['image_url'], ratios: [] },
  { match: /\/kling-video\/lipsync\/audio-to-video$/, fields: ['video_url', 'audio_url'], required: ['video_url', 'audio_url'], ratios: [] },
  { match: /\/kling-video\/.*\/image-to-video$/, fields: [...KLING, 'image_url'], required: ['image_url'], ratios: [] },
  { match: /\/kling-video\//, fields: [...KLING, 'aspect_ratio'], ratios: ['16:9', '9:16', '1:1'] },
  { match: /\/seedance\/v1\.5\/pro\/image-to-video$/, fields: [...SEEDANCE, 'image_url', 'end_image_url'], required: ['image_url'], ratios: [...SEEDANCE_RATIOS, 'auto'] },
  { match: /\/seedance\/.*\/image-to-video$/, fields: [...SEEDANCE, 'image_url'], required: ['image_url'], ratios: [...SEEDANCE_RATIOS, 'auto'] },
  { match: /\/seedance\//, fields: SEEDANCE, ratios: SEEDANCE_RATIOS },
  { match: /\/wan\/.*\/image-to-video$/, fields: ['prompt', 'duration', 'aspect_ratio', 'resolution', 'seed', 'negative_prompt', 'image_url', 'end_image_url'], required: ['image_url'], ratios: ['auto', '16:9', '9:16', '1:1'] },
  { match: /\/wan\//, fields: ['prompt', 'duration', 'aspect_ratio', 'resolution', 'seed', 'negative_prompt'], ratios: ['16:9', '9:16', '1:1'] },
  { match: /\/ray-2-flash\/image-to-video$/, fields: [...LUMA, 'image_url', 'end_image_url'], ratios: LUMA_RATIOS },
  { match: /\/ray-2\/image-to-video$/, fields: [...LUMA, 'image_url'], required: ['image_url'], ratios: LUMA_RATIOS },
  { match: /\/luma-dream-machine\//, fields: LUMA, ratios: LUMA_RATIOS },
  { match: /\/hailuo-02\/pro\/image-to-video$/, fields: ['prompt', 'image_url', 'prompt_optimizer', 'end_image_url'], required: ['image_url'], ratios: [] },
  { match: /\/hailuo-02\/standard\/image-to-video$/, fields: ['prompt', 'duration', 'prompt_optimizer', 'resolution', 'image_url', 'end_image_url'], required: ['image_url'], ratios: [] },
  { match: /\/hailuo-02\//, fields: ['prompt', 'duration', 'prompt_optimizer'], ratios: [] },
];

function videoSchema(modelId: string): VideoSchema | undefined {
  return VIDEO_SCHEMAS.find((entry) => entry.match.test(modelId));
}

function checkVideoInput(schema: VideoSchema, input: Record<string, unknown>): { loc: string[]; msg: string; type: string } | undefined {
  const extra = Object.keys(input).find((field) => !schema.fields.includes(field));
  if (extra) return { loc: ['body', extra], msg: 'extra fields not permitted', type: 'value_error.extra' };
  const missing = schema.required?.find((field) => input[field] === undefined);
  if (missing) return { loc: ['body', missing], msg: 'field required', type: 'value_error.missing' };
  const badLink = Object.entries(input).find(([field, value]) => field.endsWith('_url') && field !== 'prompt' && typeof value !== 'string');
  if (badLink) return { loc: ['body', badLink[0]], msg: 'str type expected', type: 'type_error.str' };
  if (input.image_urls !== undefined && (!Array.isArray(input.image_urls) || input.image_urls.some((url) => typeof url !== 'string'))) {
    return { loc: ['body', 'image_urls'], msg: 'value is not a valid list of strings', type: 'type_error.list' };
  }
  if (input.aspect_ratio !== undefined && !schema.ratios.includes(String(input.aspect_ratio))) {
    return { loc: ['body', 'aspect_ratio'], msg: `value is not a valid enumeration member; permitted: ${schema.ratios.map((ratio) => `'${ratio}'`).join(', ')}`, type: 'type_error.enum' };
  }
  return undefined;
}
