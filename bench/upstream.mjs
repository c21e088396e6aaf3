// A minimal, fast OpenAI-compatible upstream for the benchmark: `POST /v1/chat/completions`.
// Non-streamed: one JSON completion with usage. Streamed: CHUNKS SSE chunks, CHUNK_DELAY_MS apart,
// each flushed as written, a usage chunk when `stream_options.include_usage` is set, then [DONE].
// FIRST_BYTE_MS (0) delays the answer's first byte (status line included), as a real model's
// first token comes late: the whole non-streamed answer, or the stream's start.
// The image and video routes are bench/media-upstream.mjs's; Messages and Responses bench/formats-upstream.mjs's.
// Bookkeeping for bench/edge.mjs: requests are counted per path, and a chat request whose body
// carries `bench-tag:<id>` is remembered (when it arrived, when its last byte was written, on the
// monotonic clock every process shares, and whether its client left first);
// `GET /bench/stats?tag=<prefix>` answers `{ requests: {"METHOD /path": n}, tags: {id: {...}} }`.
// Run as a child process: `node bench/upstream.mjs` prints `READY <port>` once listening.
import http from 'node:http';
import { formatRoute, isFormatPath } from './formats-upstream.mjs';
import { isMediaPath, mediaRoute } from './media-upstream.mjs';

const PORT = Number(process.env.UPSTREAM_PORT ?? 0);
const CHUNKS = Number(process.env.CHUNKS ?? 5);
const CHUNK_DELAY_MS = Number(process.env.CHUNK_DELAY_MS ?? 10);
const FIRST_BYTE_MS = Number(process.env.FIRST_BYTE_MS ?? 0);
const WORDS = ['Hello', ' there', '!', ' How', ' can', ' I', ' help', ' you', ' today', '?'];

const usage = { prompt_tokens: 9, completion_tokens: CHUNKS, total_tokens: 9 + CHUNKS };
let seq = 0;

function completion(model) {
  const id = `chatcmpl-bench${++seq}`;
  return JSON.stringify({
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: WORDS.slice(0, CHUNKS).join('') }, finish_reason: 'stop', logprobs: null }],
    usage,
  });
}

function chunk(id, model, delta, finish, extra) {
  return `data: ${JSON.stringify({
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: finish === undefined ? [] : [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...extra,
  })}\n\n`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Milliseconds on CLOCK_MONOTONIC, the clock process.hrtime reads in every process of the machine. */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

const requests = {};
const tags = new Map();
const MAX_TAGS = 10_000;

/** Remembers a tagged request: arrival, last byte written, whether the client left before the end. */
function track(body, res) {
  const tag = /bench-tag:([\w-]+)/.exec(body)?.[1];
  if (!tag) return null;
  if (tags.size >= MAX_TAGS) tags.delete(tags.keys().next().value);
  const entry = { receivedAt: nowMs(), lastByteAt: null, closedAt: null, aborted: false };
  tags.set(tag, entry);
  res.on('close', () => {
    entry.closedAt = nowMs();
    entry.aborted = !res.writableFinished;
  });
  return entry;
}

function stats(req, res) {
  const prefix = new URL(req.url, 'http://x').searchParams.get('tag') ?? '';
  const text = JSON.stringify({ requests, tags: Object.fromEntries([...tags].filter(([tag]) => tag.startsWith(prefix))) });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function stream(res, model, includeUsage, entry) {
  const id = `chatcmpl-bench${++seq}`;
  if (FIRST_BYTE_MS > 0) await sleep(FIRST_BYTE_MS);
  if (res.destroyed) return;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
  for (let i = 0; i < CHUNKS; i++) {
    const delta = i === 0 ? { role: 'assistant', content: WORDS[i % WORDS.length] } : { content: WORDS[i % WORDS.length] };
    res.write(chunk(id, model, delta, null));
    if (CHUNK_DELAY_MS > 0) await sleep(CHUNK_DELAY_MS);
  }
  res.write(chunk(id, model, {}, 'stop'));
  if (includeUsage) res.write(chunk(id, model, undefined, undefined, { usage }));
  res.end('data: [DONE]\n\n');
  if (entry) entry.lastByteAt = nowMs();
}

const server = http.createServer((req, res) => {
  const route = `${req.method} ${req.url.split('?')[0]}`;
  if (route === 'GET /bench/stats') return stats(req, res);
  requests[route] = (requests[route] ?? 0) + 1;
  const format = req.method === 'POST' && isFormatPath(req.url);
  if (req.method !== 'POST' || (!format && !req.url.endsWith('/chat/completions'))) {
    if (isMediaPath(req.url)) return void mediaRoute(req, res).catch(() => res.destroy());
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end('{"error":{"message":"not found"}}');
    return;
  }
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(parts).toString('utf8'));
    } catch {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end('{"error":{"message":"invalid JSON"}}');
      return;
    }
    if (format) return void formatRoute(req, res, body).catch(() => res.destroy());
    const model = body.model ?? 'gpt-4o-mini';
    const entry = track(JSON.stringify(body.messages ?? ''), res);
    if (body.stream) {
      stream(res, model, body.stream_options?.include_usage === true, entry).catch(() => res.destroy());
    } else {
      const answer = () => {
        if (res.destroyed) return;
        const text = completion(model);
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
        if (entry) entry.lastByteAt = nowMs();
      };
      if (FIRST_BYTE_MS > 0) setTimeout(answer, FIRST_BYTE_MS);
      else answer();
    }
  });
});
server.keepAliveTimeout = 60_000;
server.headersTimeout = 65_000;
server.listen(PORT, '127.0.0.1', () => {
  process.stdout.write(`READY ${server.address().port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
// Never outlive the benchmark, even if it is killed hard.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && process.exit(0), 1000).unref();
