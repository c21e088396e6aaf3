// The benchmark upstream's Anthropic Messages (`POST /v1/messages`) and OpenAI Responses
// (`POST /v1/responses`) routes, as minimal and fast as its chat route (bench/upstream.mjs): the
// same words, CHUNKS of them, CHUNK_DELAY_MS apart when streamed, with usage.
const CHUNKS = Number(process.env.CHUNKS ?? 5);
const CHUNK_DELAY_MS = Number(process.env.CHUNK_DELAY_MS ?? 10);
const WORDS = ['Hello', ' there', '!', ' How', ' can', ' I', ' help', ' you', ' today', '?'];
const words = () => WORDS.slice(0, CHUNKS);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let seq = 0;

export const isFormatPath = (url) => /\/(messages|responses)(\?|$)/.test(url);

const event = (name, data) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

function json(res, value) {
  const text = JSON.stringify(value);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function startStream(res) {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  res.flushHeaders();
}

async function messages(res, body) {
  const id = `msg_bench${++seq}`;
  const model = body.model ?? 'claude';
  const usage = { input_tokens: 9, output_tokens: CHUNKS, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (!body.stream) {
    return json(res, { id, type: 'message', role: 'assistant', model, content: [{ type: 'text', text: words().join('') }], stop_reason: 'end_turn', stop_sequence: null, usage });
  }
  startStream(res);
  res.write(event('message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }));
  res.write(event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }));
  for (const word of words()) {
    res.write(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: word } }));
    if (CHUNK_DELAY_MS > 0) await sleep(CHUNK_DELAY_MS);
  }
  res.write(event('content_block_stop', { type: 'content_block_stop', index: 0 }));
  res.write(event('message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: CHUNKS } }));
  res.end(event('message_stop', { type: 'message_stop' }));
}

async function responses(res, body) {
  const id = `resp_bench${++seq}`;
  const itemId = `msg_bench${seq}`;
  const text = words().join('');
  const usage = { input_tokens: 9, input_tokens_details: { cached_tokens: 0 }, output_tokens: CHUNKS, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 9 + CHUNKS };
  const item = (content, status) => ({ id: itemId, type: 'message', role: 'assistant', status, content });
  const part = (t) => ({ type: 'output_text', text: t, annotations: [] });
  const response = (status, output, u = null) => ({ id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: body.model, output, usage: u });
  if (!body.stream) return json(res, response('completed', [item([part(text)], 'completed')], usage));
  startStream(res);
  let n = 0;
  const write = (type, data) => res.write(event(type, { type, sequence_number: n++, ...data }));
  write('response.created', { response: response('in_progress', []) });
  write('response.output_item.added', { output_index: 0, item: item([], 'in_progress') });
  write('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: part('') });
  for (const word of words()) {
    write('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: word, logprobs: [] });
    if (CHUNK_DELAY_MS > 0) await sleep(CHUNK_DELAY_MS);
  }
  write('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text, logprobs: [] });
  write('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: part(text) });
  write('response.output_item.done', { output_index: 0, item: item([part(text)], 'completed') });
  write('response.completed', { response: response('completed', [item([part(text)], 'completed')], usage) });
  res.end();
}

/** Answers a parsed request to one of the two format routes. */
export function formatRoute(req, res, body) {
  return req.url.split('?')[0].endsWith('/messages') ? messages(res, body) : responses(res, body);
}
