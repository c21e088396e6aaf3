/**
 * A local stand-in for OpenAI's Videos API (https://platform.openai.com/docs/api-reference/videos):
 * `POST /v1/videos` (multipart: `model`, `prompt`, `seconds`, `size`, optional `input_reference`
 * file; any other field, or a size the model does not render, is a 400 naming it) answers a video object `{id, object: "video", model, status: "queued", progress, seconds,
 * size, created_at}`; `GET /v1/videos/{id}` moves `queued` → `in_progress` → `completed` over
 * polls (`failed` with `error: {code, message}` for a prompt with `[fail]`; the first poll answers 503
 * for one with `[503-once]`); `GET
 * /v1/videos/{id}/content` streams the MP4 (150 MB for a prompt with `[big]`, else 2 MB; for a
 * prompt with `[stall]` its headers and 256 KiB, then nothing; with `[hang]`, not even headers).
 * Test hook (not OpenAI's): `GET /__videos/{id}` answers the create call's `{fields, files}` as received.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendMp4 } from './mp4';
import { troubleOnce } from './scenarios';

export interface VideoRecord {
  fields: Record<string, string>;
  files: { field: string; type: string; size: number }[];
}

export interface OpenAIVideosUpstream {
  url: string;
  created: VideoRecord[];
  stop: () => Promise<void>;
}

/** The create call's documented fields; anything else is refused, as OpenAI refuses unknown parameters. */
const FIELDS = new Set(['model', 'prompt', 'seconds', 'size', 'input_reference']);
/** Sizes per model, as the API reference lists them. */
const SIZES: Record<string, string[]> = { 'sora-2': ['720x1280', '1280x720'], 'sora-2-pro': ['720x1280', '1280x720', '1024x1792', '1792x1024'] };

export const SMALL_VIDEO_BYTES = 2 * 1024 * 1024;
export const BIG_VIDEO_BYTES = 150 * 1024 * 1024;
export const STALL_AFTER_BYTES = 256 * 1024;

export async function startOpenAIVideosUpstream(apiKey = 'sk-videos-test'): Promise<OpenAIVideosUpstream> {
  const created: VideoRecord[] = [];
  const videos = new Map<string, { fields: Record<string, string>; record: VideoRecord; polls: number; seed: number }>();
  const troubled = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${apiKey}`) return json(401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    const path = req.url ?? '/';
    if (req.method === 'POST' && path === '/v1/videos') {
      const form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: Buffer.concat(chunks) }).formData();
      const record: VideoRecord = { fields: {}, files: [] };
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') record.fields[field] = value;
        else record.files.push({ field, type: value.type, size: value.size });
      }
      const unknown = [...Object.keys(record.fields), ...record.files.map((file) => file.field)].find((field) => !FIELDS.has(field));
      if (unknown) return json(400, { error: { message: `Unknown parameter: '${unknown}'.`, type: 'invalid_request_error', param: unknown, code: 'unknown_parameter' } });
      const sizes = SIZES[record.fields.model ?? ''] ?? [];
      if (!sizes.includes(record.fields.size ?? '')) {
        return json(400, { error: { message: `Invalid value: '${record.fields.size}'. Supported values are: ${sizes.map((size) => `'${size}'`).join(', ')}.`, type: 'invalid_request_error', param: 'size', code: 'invalid_value' } });
      }
      if (!['4', '8', '12'].includes(record.fields.seconds ?? '')) {
        return json(400, { error: { message: `Invalid value: '${record.fields.seconds}'. Supported values are: '4', '8', and '12'.`, type: 'invalid_request_error', param: 'seconds', code: 'invalid_value' } });
      }
      created.push(record);
      const id = `video_${created.length}${Math.random().toString(36).slice(2, 10)}`;
      videos.set(id, { fields: record.fields, record, polls: 0, seed: created.length });
      return json(200, view(id, record.fields, 'queued'));
    }
    const submitted = /^\/__videos\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && submitted) {
      const video = videos.get(submitted[1]!);
      return video ? json(200, video.record) : json(404, { error: { message: 'Video not found.', type: 'invalid_request_error', param: null, code: null } });
    }
    const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
    const video = match ? videos.get(match[1]!) : undefined;
    if (req.method !== 'GET' || !match || !video) return json(404, { error: { message: 'Video not found.', type: 'invalid_request_error', param: null, code: null } });
    if (match[2]) {
      if (video.polls < 2) return json(400, { error: { message: 'Video is not ready yet.', type: 'invalid_request_error', param: null, code: null } });
      const prompt = video.fields.prompt ?? '';
      if (prompt.includes('[hang]')) return;
      return sendMp4(res, prompt.includes('[big]') ? BIG_VIDEO_BYTES : SMALL_VIDEO_BYTES, video.seed, { range: req.headers.range, ...(prompt.includes('[stall]') ? { stallAfter: STALL_AFTER_BYTES } : {}) });
    }
    if (troubleOnce(video.fields.prompt, troubled, match[1]!)) return void res.writeHead(503).end();
    video.polls++;
    const status = video.polls === 1 ? 'queued' : video.polls === 2 ? 'in_progress' : (video.fields.prompt ?? '').includes('[fail]') ? 'failed' : 'completed';
    json(200, view(match[1]!, video.fields, status));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    created,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function view(id: string, fields: Record<string, string>, status: string) {
  return {
    id,
    object: 'video',
    model: fields.model,
    status,
    progress: status === 'completed' ? 100 : status === 'in_progress' ? 50 : 0,
    created_at: Math.floor(Date.now() / 1000),
    completed_at: status === 'completed' ? Math.floor(Date.now() / 1000) : null,
    seconds: fields.seconds,
    size: fields.size,
    ...(status === 'failed' ? { error: { code: 'moderation_blocked', message: 'The video was blocked by the moderation system.' } } : {}),
  };
}
