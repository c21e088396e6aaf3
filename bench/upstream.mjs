// A minimal, fast OpenAI-compatible upstream for the benchmark: `POST /v1/chat/completions`.
// Non-streamed: one JSON completion with usage. Streamed: CHUNKS SSE chunks, CHUNK_DELAY_MS apart,
// each flushed as written, a usage chunk when `stream_options.include_usage` is set, then [DONE].
// The image and video routes are bench/media-upstream.mjs's.
// Run as a child process: `node bench/upstream.mjs` prints `READY <port>` once listening.
import http from 'node:http';
import { isMediaPath, mediaRoute } from './media-upstream.mjs';

const PORT = Number(process.env.UPSTREAM_PORT ?? 0);
const CHUNKS = Number(process.env.CHUNKS ?? 5);
const CHUNK_DELAY_MS = Number(process.env.CHUNK_DELAY_MS ?? 10);
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

async function stream(res, model, includeUsage) {
  const id = `chatcmpl-bench${++seq}`;
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
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
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
    const model = body.model ?? 'gpt-4o-mini';
    if (body.stream) {
      stream(res, model, body.stream_options?.include_usage === true).catch(() => res.destroy());
    } else {
      const text = completion(model);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
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
