/**
 * A local stand-in for Anthropic's Messages API (`POST /v1/messages`), answering each scenario of
 * scenarios.ts as JSON or as an SSE stream framed the way Anthropic's streaming guide shows it.
 */
import type { ServerResponse } from 'node:http';
import {
  DIE_AFTER_WORDS,
  HELLO_WORDS,
  SLOW_CHUNK_MS,
  SLOW_WORDS,
  promptTokensOf,
  reportedUsage,
  scenarioOf,
  toolCallOf,
} from './scenarios';
import { isJson, sendJson, sleep, startSse, startUpstream, type Json, type RecordedRequest, type Upstream } from './server';

/** Output tokens the simulator bills for its one tool call. */
const TOOL_CALL_OUTPUT_TOKENS = 12;
/** What the simulator thinks, with `thinking` enabled, and the signature it signs it with. */
export const THINKING_PIECES = ['Let me think', ' about this.'];
export const THINKING_SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds';


export async function startAnthropicUpstream(): Promise<Upstream> {
  let served = 0;
  return startUpstream(async (request, res) => {
    served += 1;
    const ids = { message: `msg_sim${String(served).padStart(4, '0')}`, request: `req_sim${String(served).padStart(4, '0')}` };
    const path = request.path.split('?')[0];
    if (request.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
      return sendError(res, 404, 'not_found_error', 'Not found', ids.request);
    }
    if (!request.headers['x-api-key']) return sendError(res, 401, 'authentication_error', 'invalid x-api-key', ids.request);
    const body = isJson(request.body) ? request.body : {};
    // Free upstream; counts what the prompt's tags say, else the request's size (as `answer` does).
    if (path === '/v1/messages/count_tokens') {
      if (!Array.isArray(body.messages)) return sendError(res, 400, 'invalid_request_error', 'messages: Field required', ids.request);
      return sendJson(res, 200, { input_tokens: reportedUsage(lastUserText(body)).prompt ?? promptTokensOf(body) }, { 'request-id': ids.request });
    }
    await answer(request, body, res, ids);
  });
}

async function answer(request: RecordedRequest, body: Json, res: ServerResponse, ids: { message: string; request: string }) {
  const stream = body.stream === true;
  // Cache and thinking counts the prompt's tags ask for, in Anthropic's fields: `input_tokens`
  // leaves cache reads and writes out, `cache_creation` splits writes by lifetime, and
  // `output_tokens` counts thinking (Anthropic reports no count of its own for it).
  const reported = reportedUsage(lastUserText(body));
  const inputTokens = reported.prompt ?? promptTokensOf(request.body);
  // With `thinking` on, the answer opens with a signed thinking block (its words billed as output).
  const thinks = isJson(body.thinking) && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
  const thinking = reported.reasoning + (thinks ? THINKING_PIECES.length : 0);
  const thinkingBlock = { type: 'thinking', thinking: THINKING_PIECES.join(''), signature: THINKING_SIGNATURE };
  const withThinking = (blocks: Json[]) => (thinks ? [thinkingBlock, ...blocks] : blocks);
  const first = thinks ? 1 : 0;
  const cacheUsage = {
    cache_creation_input_tokens: reported.cacheWrite5m + reported.cacheWrite1h,
    cache_read_input_tokens: reported.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: reported.cacheWrite5m, ephemeral_1h_input_tokens: reported.cacheWrite1h },
  };
  const message = (usage: Json): Json => ({
    id: ids.message,
    type: 'message',
    role: 'assistant',
    model: typeof body.model === 'string' ? body.model : 'claude-simulator',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: inputTokens, ...cacheUsage, ...usage },
  });

  switch (scenarioOf(lastUserText(body), 'anthropic')) {
    case 'error402':
      return sendError(res, 402, 'billing_error', 'Your credit balance is too low to access the Anthropic API.', ids.request);
    case 'error401':
      return sendError(res, 401, 'authentication_error', 'invalid x-api-key', ids.request);
    case 'error500':
      return sendError(res, 500, 'api_error', 'Internal server error', ids.request);
    case 'error429':
      return sendError(res, 429, 'rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.', ids.request, {
        'retry-after': '1',
      });
    case 'tool': {
      const call = toolCallOf(toolNames(body), lastUserText(body));
      if (!call) return sendError(res, 400, 'invalid_request_error', 'The [tool] scenario needs at least one tool.', ids.request);
      const toolId = `toolu_sim${ids.message.slice(-4)}`;
      if (!stream) {
        const block = { type: 'tool_use', id: toolId, name: call.name, input: call.input };
        return sendJson(res, 200, done(message({ output_tokens: TOOL_CALL_OUTPUT_TOKENS + thinking }), withThinking([block]), 'tool_use'), { 'request-id': ids.request });
      }
      const sse = open(res, ids.request);
      sse.event('message_start', { type: 'message_start', message: message({ output_tokens: 1 }) });
      if (thinks) sse.thinking(0);
      sse.event('content_block_start', { type: 'content_block_start', index: first, content_block: { type: 'tool_use', id: toolId, name: call.name, input: {} } });
      sse.event('ping', { type: 'ping' });
      for (const piece of ['', ...jsonPieces(JSON.stringify(call.input))]) {
        sse.event('content_block_delta', { type: 'content_block_delta', index: first, delta: { type: 'input_json_delta', partial_json: piece } });
      }
      sse.event('content_block_stop', { type: 'content_block_stop', index: first });
      return sse.close('tool_use', TOOL_CALL_OUTPUT_TOKENS + thinking);
    }
    case 'die': {
      if (!stream) return void res.socket?.destroy();
      const sse = open(res, ids.request);
      sse.start(message({ output_tokens: 1 }), 0);
      DIE_AFTER_WORDS.forEach((word) => sse.text(word));
      await sleep(20); // let the words reach the client before the connection drops
      return sse.die();
    }
    case 'slow':
      return say(SLOW_WORDS, SLOW_CHUNK_MS);
    case 'hello':
      return say(HELLO_WORDS, 0);
  }

  async function say(words: string[], pauseMs: number) {
    if (!stream) {
      if (pauseMs) await sleep(pauseMs * words.length);
      const block = { type: 'text', text: words.join('') };
      return sendJson(res, 200, done(message({ output_tokens: words.length + thinking }), withThinking([block]), 'end_turn'), { 'request-id': ids.request });
    }
    const sse = open(res, ids.request);
    sse.start(message({ output_tokens: 1 }), first, thinks);
    for (const word of words) {
      // The client went away (a cancelled stream): stop, as the real API does.
      if (sse.gone()) return;
      sse.text(word, first);
      if (pauseMs) await sleep(pauseMs);
    }
    sse.event('content_block_stop', { type: 'content_block_stop', index: first });
    sse.close('end_turn', words.length + thinking);
  }
}

/** An SSE answer written as `event: <name>\ndata: <json>\n\n`, in the order Anthropic documents. */
function open(res: ServerResponse, requestId: string) {
  res.setHeader('request-id', requestId);
  let gone = false;
  res.on('close', () => (gone = true));
  const sse = startSse(res);
  const event = (name: string, data: Json) => sse.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  return {
    event,
    die: sse.die,
    /** True once the connection closed before the answer ended. */
    gone: () => gone || res.destroyed,
    /** A thinking block at `index`: thinking_delta pieces, then its signature_delta (extended thinking's stream). */
    thinking(index: number) {
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      for (const piece of THINKING_PIECES) event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: THINKING_SIGNATURE } });
      event('content_block_stop', { type: 'content_block_stop', index });
    },
    /** message_start, then (with thinking) the thinking block, then a text block opens, then a ping (as in the guide's examples). */
    start(message: Json, index: number, thinks = false) {
      event('message_start', { type: 'message_start', message });
      if (thinks) this.thinking(0);
      event('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      event('ping', { type: 'ping' });
    },
    text(word: string, index = 0) {
      event('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: word } });
    },
    close(stopReason: string, outputTokens: number) {
      event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } });
      event('message_stop', { type: 'message_stop' });
      sse.end();
    },
  };
}

function done(message: Json, content: Json[], stopReason: string): Json {
  return { ...message, content, stop_reason: stopReason };
}

function sendError(res: ServerResponse, status: number, type: string, message: string, requestId: string, headers: Record<string, string> = {}) {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: requestId }, { 'request-id': requestId, ...headers });
}

/** Splits tool input JSON into a few pieces, the way Anthropic chunks `partial_json`. */
function jsonPieces(json: string): string[] {
  const size = Math.ceil(json.length / 3);
  return [json.slice(0, size), json.slice(size, 2 * size), json.slice(2 * size)].filter((piece) => piece !== '');
}


/** The text of the last user turn (string content or its text blocks; tool results carry none). */
function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
  const last = messages.filter((m) => m.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return '';
  return last.content
    .filter(isJson)
    .flatMap((block) => (block.type === 'text' && typeof block.text === 'string' ? [block.text] : []))
    .join('\n');
}

function toolNames(body: Json): string[] {
  return (Array.isArray(body.tools) ? body.tools.filter(isJson) : []).flatMap((tool) => (typeof tool.name === 'string' ? [tool.name] : []));
}
