/**
 * A local stand-in for Replicate's predictions API (https://replicate.com/docs/reference/http),
 * as official image models answer it: `POST /v1/models/{owner}/{name}/predictions` (Bearer,
 * `{input}`) answers a prediction `{id, model, version, input, logs, output, error, status,
 * created_at, started_at, completed_at, urls: {get, cancel}}` with status `starting`; each
 * `GET /v1/predictions/{id}` moves it to `processing`, then `succeeded` with `output` a list of
 * file URLs served here. A prompt with `[fail]` ends `failed` with `error` (with `[503-once]` its first poll answers 503), one with `[cancel]`
 * ends `canceled`; an input without `prompt` gets the 422 Replicate sends for invalid input. A
 * video input (it has a `duration`, as Kling's does) succeeds with `output` one MP4 URL (2 MB); a
 * Kling input with a field its schema lacks (or kling-v2.1 without `start_image`, or with
 * `end_image` outside mode "pro") gets the 422 Replicate sends for it.
 * File inputs given as URLs (`input_image`, `image`, `image_input`: the reference members of the
 * edit models) are downloaded at creation, as Replicate does; one that cannot be read fails the
 * prediction. What was downloaded is recorded in `fetched`.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendMp4 } from './mp4';
import { troubleOnce } from './scenarios';
import { png } from './openai-images';
import { sendJson, startUpstream, type Upstream } from './server';

export interface ReplicateUpstream extends Upstream {
  /** The PNGs served, base64, in order. */
  served: string[];
  /** File inputs downloaded: the input member, the URL and the SHA-256 of its bytes. */
  fetched: { field: string; url: string; sha256: string }[];
}

/** Input members that carry files (reference images) on the models the gateway sends them to. */
const FILE_INPUTS = ['input_image', 'image', 'image_input'];
/** The kwaivgi/kling-v2.x input schema's fields (https://replicate.com/kwaivgi/kling-v2.1/api): no seed. */
const KLING_INPUTS = ['prompt', 'negative_prompt', 'duration', 'aspect_ratio', 'start_image', 'end_image', 'mode', 'guidance_scale'];
/** kwaivgi/kling-v2.1 is image-to-video: start_image required, no aspect_ratio, end_image in mode "pro" only. */
const KLING_V21_INPUTS = ['prompt', 'negative_prompt', 'duration', 'start_image', 'end_image', 'mode'];

/** Why Replicate would refuse a Kling input (its 422 description), or undefined. */
function klingRefusal(model: string, input: Record<string, unknown>): string | undefined {
  if (!model.startsWith('kwaivgi/kling-')) return undefined;
  const fields = model === 'kwaivgi/kling-v2.1' ? KLING_V21_INPUTS : KLING_INPUTS;
  const extra = Object.keys(input).find((field) => !fields.includes(field));
  if (extra) return `Additional property ${extra} is not allowed`;
  if (model !== 'kwaivgi/kling-v2.1') return undefined;
  if (typeof input.start_image !== 'string') return 'start_image is required';
  if (input.end_image !== undefined && input.mode !== 'pro') return 'end_image requires mode pro';
  return undefined;
}

interface Stored {
  id: string;
  model: string;
  input: Record<string, unknown>;
  polls: number;
  created_at: string;
  output: string[] | string | null;
  /** Why a file input could not be read: the prediction fails with it. */
  fileError?: string;
}

export const REPLICATE_VIDEO_BYTES = 2 * 1024 * 1024;

/** Aspect ratio to the size the simulator renders, as these models do (about one megapixel). */
const SIZES: Record<string, [number, number]> = { '1:1': [1024, 1024], '16:9': [1344, 768], '9:16': [768, 1344], '4:3': [1152, 864], '3:4': [864, 1152] };

export async function startReplicateUpstream(apiKey = 'r8_test'): Promise<ReplicateUpstream> {
  const predictions = new Map<string, Stored>();
  const troubled = new Set<string>();
  const files = new Map<string, Buffer>();
  const served: string[] = [];
  const fetched: ReplicateUpstream['fetched'] = [];
  let url = '';

  async function downloadFiles(input: Record<string, unknown>): Promise<string | undefined> {
    for (const field of FILE_INPUTS) {
      const value = input[field];
      for (const link of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
        const response = typeof link === 'string' ? await fetch(link).catch(() => undefined) : undefined;
        if (!response?.ok) return `Failed to download file input ${field}: ${String(link)}`;
        fetched.push({ field, url: link as string, sha256: createHash('sha256').update(Buffer.from(await response.arrayBuffer())).digest('hex') });
      }
    }
    return undefined;
  }

  const upstream = await startUpstream(async (request, res) => {
    const path = request.path.split('?')[0]!;
    if (request.method === 'GET' && path.startsWith('/files/video-')) return sendMp4(res, REPLICATE_VIDEO_BYTES, 7, { range: request.headers.range });
    if (request.method === 'GET' && path.startsWith('/files/')) return serveFile(res, files.get(path));
    if (request.headers.authorization !== `Bearer ${apiKey}`) {
      return sendJson(res, 401, { title: 'Unauthenticated', detail: 'You did not pass a valid authentication token', status: 401 });
    }
    const create = /^\/v1\/models\/([^/]+\/[^/]+)\/predictions$/.exec(path);
    if (request.method === 'POST' && create) {
      const input = ((request.body ?? {}) as { input?: Record<string, unknown> }).input ?? {};
      if (typeof input.prompt !== 'string') {
        return sendJson(res, 422, { title: 'Input validation failed', detail: '- input: prompt is required', status: 422, invalid_fields: [{ type: 'required', field: 'input', description: 'prompt is required' }] });
      }
      const refused = klingRefusal(create[1]!, input);
      if (refused) {
        return sendJson(res, 422, { title: 'Input validation failed', detail: `- input: ${refused}`, status: 422, invalid_fields: [{ type: 'invalid', field: 'input', description: refused }] });
      }
      const id = `p${predictions.size + 1}${Math.random().toString(36).slice(2, 10)}`;
      const fileError = await downloadFiles(input);
      const stored: Stored = { id, model: create[1]!, input, polls: 0, created_at: new Date().toISOString(), output: null, ...(fileError ? { fileError } : {}) };
      predictions.set(id, stored);
      return sendJson(res, 201, view(stored));
    }
    const get = /^\/v1\/predictions\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && get) {
      const stored = predictions.get(get[1]!);
      if (!stored) return sendJson(res, 404, { title: 'Not found', detail: 'Prediction not found', status: 404 });
      if (troubleOnce(stored.input.prompt, troubled, stored.id)) return void res.writeHead(503).end();
      stored.polls++;
      return sendJson(res, 200, view(stored));
    }
    sendJson(res, 404, { title: 'Not found', detail: `No route for ${request.method} ${path}`, status: 404 });
  });
  url = upstream.url;

  function view(stored: Stored) {
    const prompt = String(stored.input.prompt);
    const ended = stored.polls >= 2;
    const failed = prompt.includes('[fail]') || stored.fileError !== undefined;
    const status = !ended ? (stored.polls === 0 ? 'starting' : 'processing') : failed ? 'failed' : prompt.includes('[cancel]') ? 'canceled' : 'succeeded';
    if (status === 'succeeded' && !stored.output && stored.input.duration !== undefined) stored.output = `${url}/files/video-${stored.id}.mp4`;
    if (status === 'succeeded' && !stored.output) {
      const [width, height] = SIZES[String(stored.input.aspect_ratio)] ?? [1024, 1024];
      const bytes = png(width, height, `${stored.model}|${prompt}|${stored.id}`);
      const path = `/files/${stored.id}.png`;
      files.set(path, bytes);
      served.push(bytes.toString('base64'));
      stored.output = [`${url}${path}`];
    }
    return {
      id: stored.id,
      model: stored.model,
      version: 'hidden',
      input: stored.input,
      logs: '',
      output: status === 'succeeded' ? stored.output : null,
      data_removed: false,
      error: status === 'failed' ? (stored.fileError ?? 'The model refused the prompt (NSFW content detected).') : null,
      status,
      created_at: stored.created_at,
      started_at: stored.polls > 0 ? stored.created_at : null,
      completed_at: ended ? new Date().toISOString() : null,
      urls: { cancel: `${url}/v1/predictions/${stored.id}/cancel`, get: `${url}/v1/predictions/${stored.id}`, web: `https://replicate.com/p/${stored.id}` },
      ...(ended ? { metrics: { predict_time: 1.1, total_time: 1.3 } } : {}),
    };
  }

  return { ...upstream, served, fetched };
}

function serveFile(res: ServerResponse, bytes: Buffer | undefined): void {
  if (!bytes) return sendJson(res, 404, { detail: 'Not found' });
  res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) });
  res.end(bytes);
}
