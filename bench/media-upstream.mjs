// The media routes of the benchmark's upstream (bench/upstream.mjs serves them beside chat, on the
// same port, so the gateway's one OPENAI_BASE_URL reaches both). OpenAI's wire formats, as the
// gateway's rails call them (src/providers/openai/images.ts and videos.ts):
// - POST /v1/images/generations (JSON): `{created, data: [{b64_json}], output_format, quality,
//   size, usage}`, every image the same real 1024x1024 PNG of about BENCH_IMAGE_KB (1024) KB,
//   made once.
// - POST /v1/videos (multipart: model, prompt, seconds, size): a video object, `queued`;
//   GET /v1/videos/{id}: `queued`, then `in_progress`, then `completed`; GET
//   /v1/videos/{id}/content: an MP4 of VIDEO_BYTES (150 MiB) with its Content-Length, an `ftyp`
//   box then one `mdat` box of filler, written 1 MiB at a time as the client reads.
// - POST /v1/audio/transcriptions (multipart: file, model, response_format): `{text, usage}`, the
//   text naming the file's size, so the row checks that the whole file arrived.
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

export const VIDEO_BYTES = 150 * 1024 * 1024;
const KEY = 'sk-bench'; // UPSTREAM_KEY in lib.mjs
const IMAGE_KB = Number(process.env.BENCH_IMAGE_KB ?? 1024);
const MIB = 1024 * 1024;

/** Whether `path` is one of these routes. */
export const isMediaPath = (path) => /^\/v1\/(images|videos|audio\/transcriptions)(\/|$)/.test(path);

const json = (res, status, body) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};
const error = (res, status, message, param = null) => json(res, status, { error: { message, type: 'invalid_request_error', param, code: null } });

const videos = new Map();
let seq = 0;
let imageB64;

export async function mediaRoute(req, res) {
  const parts = [];
  for await (const part of req) parts.push(part);
  const body = Buffer.concat(parts);
  if (req.headers.authorization !== `Bearer ${KEY}`) return error(res, 401, 'Incorrect API key provided.');
  const path = req.url.split('?')[0];

  if (req.method === 'POST' && path === '/v1/images/generations') {
    const { prompt, n = 1, quality = 'medium' } = JSON.parse(body.toString('utf8'));
    imageB64 ??= png(IMAGE_KB * 1024).toString('base64');
    const text = Math.ceil(String(prompt ?? '').length / 4);
    const output = n * 272;
    return json(res, 200, {
      created: Math.floor(Date.now() / 1000),
      data: Array.from({ length: n }, () => ({ b64_json: imageB64 })),
      background: 'opaque',
      output_format: 'png',
      quality,
      size: '1024x1024',
      usage: { input_tokens: text, input_tokens_details: { image_tokens: 0, text_tokens: text }, output_tokens: output, total_tokens: text + output },
    });
  }
  if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
    const form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData();
    const file = form.get('file');
    if (!file || typeof file === 'string') return error(res, 400, 'file is required', 'file');
    return json(res, 200, { text: `transcript of ${file.size} bytes`, usage: { type: 'duration', seconds: 1 } });
  }
  if (req.method === 'POST' && path === '/v1/videos') {
    const form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body }).formData();
    const fields = Object.fromEntries([...form.entries()].filter(([, v]) => typeof v === 'string'));
    if (!['4', '8', '12'].includes(fields.seconds)) return error(res, 400, `Invalid value: '${fields.seconds}'.`, 'seconds');
    const id = `video_bench${++seq}`;
    videos.set(id, { fields, polls: 0 });
    return json(res, 200, view(id, videos.get(id), 'queued'));
  }
  const match = /^\/v1\/videos\/([^/]+)(\/content)?$/.exec(path);
  const video = match && videos.get(match[1]);
  if (req.method !== 'GET' || !video) return error(res, 404, `Invalid URL (${req.method} ${path})`);
  if (!match[2]) {
    video.polls++;
    return json(res, 200, view(match[1], video, video.polls === 1 ? 'queued' : video.polls === 2 ? 'in_progress' : 'completed'));
  }
  if (video.polls < 3) return error(res, 400, 'Video is not ready yet.');
  sendMp4(res, VIDEO_BYTES);
}

function view(id, video, status) {
  const now = Math.floor(Date.now() / 1000);
  const { model, seconds, size } = video.fields;
  return { id, object: 'video', model, status, progress: status === 'completed' ? 100 : status === 'in_progress' ? 50 : 0, created_at: now, completed_at: status === 'completed' ? now : null, seconds, size };
}

/** `size` bytes of MP4, 1 MiB a write, waiting for `drain`: the upstream holds one chunk at a time. */
function sendMp4(res, size) {
  const filler = Buffer.alloc(MIB);
  for (let i = 0; i < MIB; i++) filler[i] = (i * 31 + 7) & 0xff;
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isomiso2', 16, 'latin1');
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(size - ftyp.length, 0);
  mdat.write('mdat', 4, 'latin1');
  res.writeHead(200, { 'Content-Type': 'video/mp4', 'Content-Length': String(size) });
  let sent = 0;
  const write = () => {
    while (sent < size) {
      const chunk = sent === 0 ? Buffer.concat([ftyp, mdat, filler.subarray(32)]) : filler.subarray(0, Math.min(MIB, size - sent));
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', write);
    }
    res.end();
  };
  res.on('close', () => (sent = size));
  write();
}

/** A real 1024x1024 RGB PNG of about `bytes`: noise rows (incompressible) up to the size, then one colour. */
function png(bytes) {
  const width = 1024;
  const rowBytes = 1 + width * 3;
  const noisyRows = Math.min(1024, Math.ceil(bytes / rowBytes));
  const raw = Buffer.alloc(rowBytes * 1024, 0x80);
  for (let y = 0; y < 1024; y++) {
    raw[y * rowBytes] = 0; // filter: none
    if (y < noisyRows) randomBytes(rowBytes - 1).copy(raw, y * rowBytes + 1);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(1024, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const chunk = (type, data) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    typed.copy(out, 4);
    out.writeUInt32BE(crc32(typed), 8 + data.length);
    return out;
  };
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
