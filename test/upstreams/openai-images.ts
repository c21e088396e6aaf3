/**
 * A local stand-in for OpenAI's Images API (https://platform.openai.com/docs/api-reference/images),
 * as GPT-image models answer it: `POST /v1/images/generations` (JSON) and `POST /v1/images/edits`
 * (multipart/form-data, references as `image[]` files) both return
 * `{created, data: [{b64_json}], output_format, quality, size, usage}`; there is no `response_format`
 * for these models (a request carrying one gets OpenAI's 400). Sizes other than 1024x1024,
 * 1536x1024, 1024x1536 and `auto` get OpenAI's 400, and so does a prompt containing `[reject]`;
 * `[slow]` answers after 1.5 s. A prompt with `[reset]` has its connection dropped once the request
 * is read (a reset mid-response: the render may have started); one with `[500-once]` or `[429-once]`
 * gets OpenAI's `server_error` 500 or `rate_limit_exceeded` 429 the first time it is sent, then
 * renders as usual. A request under `/hang/` (a base URL of `<url>/hang/v1`) is
 * recorded and never answered, a render that outlives its Worker, until `POST /__hung/release`
 * answers every hung request 503. `GET /__seen` lists the path and prompt of every request
 * received, so tests inside workerd can count the renders an upstream saw.
 * Every image is a real PNG of the requested size whose text chunk names the prompt and index,
 * so tests can check that exactly these bytes were hosted. `usage` counts tokens as GPT-image
 * models bill them: output tokens per image by quality and size (OpenAI's published table: 1056
 * for a medium 1024x1024), text input at 4 characters a token, and a fixed 520 image tokens per
 * reference file; every answer's usage is kept in `usages`.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';

export interface ImageRequestRecord {
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, or for multipart the text fields and each file's name, type and SHA-256. */
  fields: Record<string, unknown>;
  files: { field: string; type: string; size: number; sha256: string }[];
}

export interface ImagesUpstream {
  url: string;
  requests: ImageRequestRecord[];
  /** The PNGs of every answer, base64, in order, to compare with what the gateway hosted. */
  answered: string[];
  /** The `usage` of every successful answer, in order. */
  usages: ImageUsage[];
  stop: () => Promise<void>;
}

const SIZES = new Set(['1024x1024', '1536x1024', '1024x1536', 'auto']);

export interface ImageUsage {
  input_tokens: number;
  input_tokens_details: { image_tokens: number; text_tokens: number };
  output_tokens: number;
  total_tokens: number;
}

/** Output tokens of one image, by quality and then size (square, landscape, portrait). */
const OUTPUT_TOKENS: Record<string, Record<string, number>> = {
  low: { '1024x1024': 272, '1536x1024': 408, '1024x1536': 400 },
  medium: { '1024x1024': 1056, '1536x1024': 1584, '1024x1536': 1568 },
  high: { '1024x1024': 4160, '1536x1024': 6240, '1024x1536': 6208 },
};
export const TOKENS_PER_REFERENCE = 520;

export async function startOpenAIImagesUpstream(apiKey = 'sk-images-test'): Promise<ImagesUpstream> {
  const requests: ImageRequestRecord[] = [];
  const answered: string[] = [];
  const usages: ImageUsage[] = [];
  const seen: { path: string; prompt: unknown }[] = [];
  const hung: import('node:http').ServerResponse[] = [];
  /** Prompts already answered their one `[500-once]`/`[429-once]` error. */
  const troubled = new Set<string>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, message: string, param: string | null, code: string | null = null) =>
      reply(status, { error: { message, type: 'invalid_request_error', param, code } });

    if (req.url === '/__seen') return reply(200, seen);
    if (req.url === '/__hung/release') {
      const released = hung.splice(0);
      for (const waiting of released) {
        waiting.writeHead(503, { 'Content-Type': 'application/json' });
        waiting.end(JSON.stringify({ error: { message: 'The server had an error while processing your request.', type: 'server_error', param: null, code: null } }));
      }
      return reply(200, { released: released.length });
    }
    if (req.headers.authorization !== `Bearer ${apiKey}`) return error(401, 'Incorrect API key provided.', null, 'invalid_api_key');
    const path = req.url ?? '/';
    if (req.headers['content-type']?.startsWith('application/json')) seen.push({ path, prompt: (JSON.parse(raw.toString('utf8')) as { prompt?: unknown }).prompt });
    if (path.startsWith('/hang/')) return void hung.push(res);
    let record: ImageRequestRecord;
    if (path === '/v1/images/generations') {
      record = { path, headers: req.headers, fields: JSON.parse(raw.toString('utf8')) as Record<string, unknown>, files: [] };
    } else if (path === '/v1/images/edits') {
      const form = await new Request('http://local/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] ?? '' }, body: raw }).formData();
      record = { path, headers: req.headers, fields: {}, files: [] };
      for (const [field, value] of form.entries()) {
        if (typeof value === 'string') record.fields[field] = value;
        else {
          const bytes = Buffer.from(await value.arrayBuffer());
          record.files.push({ field, type: value.type, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
        }
      }
      if (record.files.length === 0) return error(400, "Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
    } else {
      return error(404, `Invalid URL (POST ${path})`, null);
    }
    requests.push(record);

    const { model, prompt, size = 'auto', quality = 'auto' } = record.fields as Record<string, string>;
    const n = Number(record.fields.n ?? 1);
    if ('response_format' in record.fields) return error(400, "Unknown parameter: 'response_format'.", 'response_format', 'unknown_parameter');
    if (!SIZES.has(size)) return error(400, `Invalid value: '${size}'. Supported values are: '1024x1024', '1024x1536', '1536x1024', and 'auto'.`, 'size', 'invalid_value');
    if (typeof prompt === 'string' && prompt.includes('[reject]')) return error(400, 'Your request was rejected as a result of our safety system.', null, 'moderation_blocked');
    if (typeof prompt === 'string' && prompt.includes('[reset]')) return void req.socket.destroy();
    if (typeof prompt === 'string' && /\[(500|429)-once\]/.test(prompt) && !troubled.has(prompt)) {
      troubled.add(prompt);
      if (prompt.includes('[429-once]')) return reply(429, { error: { message: 'Rate limit reached for images per minute. Please try again in 1s.', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
      return reply(500, { error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } });
    }
    if (typeof prompt === 'string' && prompt.includes('[slow]')) await new Promise((resolve) => setTimeout(resolve, 1_500));
    const [width, height] = (size === 'auto' ? '1024x1024' : size).split('x').map(Number) as [number, number];
    const data = Array.from({ length: n }, (_, i) => {
      const b64 = png(width, height, `${model}|${prompt}|${i}`).toString('base64');
      answered.push(b64);
      return { b64_json: b64 };
    });
    const rendered = quality === 'auto' ? 'medium' : quality;
    const text = Math.ceil(String(prompt ?? '').length / 4);
    const image = record.files.length * TOKENS_PER_REFERENCE;
    const output = n * (OUTPUT_TOKENS[rendered]?.[`${width}x${height}`] ?? 1056);
    const usage = { input_tokens: text + image, input_tokens_details: { image_tokens: image, text_tokens: text }, output_tokens: output, total_tokens: text + image + output };
    usages.push(usage);
    reply(200, { created: Math.floor(Date.now() / 1000), data, background: 'opaque', output_format: 'png', quality: rendered, size: `${width}x${height}`, usage });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    answered,
    usages,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A real PNG: one colour from the seed, the seed itself in a tEXt chunk. */
export function png(width: number, height: number, seed: string): Buffer {
  const [r, g, b] = createHash('sha256').update(seed).digest();
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r!, g!, b!], 1 + x * 3);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('tEXt', Buffer.from(`Comment\0${seed}`, 'latin1')),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
