/**
 * A local OpenAI chat-completions upstream (https://platform.openai.com/docs/api-reference/chat).
 * With `{ path: '/openai/v1/chat/completions', name: 'groq', supportsN: false }` it plays Groq, the
 * group-2 provider: `n` above 1 is a 400, and streamed usage also rides on the finish chunk as
 * `x_groq.usage`, as Groq sends it. With `{ name: 'cerebras', usageOnFinishChunk: true, rejects: [...] }`
 * it plays Cerebras (https://inference-docs.cerebras.ai/api-reference/chat-completions): the usage
 * `stream_options.include_usage` asks for rides on the finish chunk (no chunk of its own), every
 * answer carries `time_info`, and the members it rejects are a 400. With `{ name: 'deepseek', path:
 * '/chat/completions' }` it plays DeepSeek's usage (cache hits and misses in its own fields).
 * Cache and reasoning counts come when the prompt's tags ask (`reportedUsage` in scenarios.ts).
 * As `openai` it also serves `POST /v1/responses` (`./openai-responses.ts`).
 */
import type { ServerResponse } from 'node:http';
import {
  DIE_AFTER_WORDS,
  HELLO_WORDS,
  HUGE_LINE_BYTES,
  promptTokensOf,
  reportedUsage,
  retryAfterOf,
  scenarioOf,
  type ReportedUsage,
  SILENCE_MS,
  SLOW_CHUNK_MS,
  SLOW_WORDS,
  toolCallOf,
} from './scenarios';
import { serveResponses } from './openai-responses';
import { isJson, sendJson, sleep, startSse, startUpstream, type Json, type RecordedRequest, type Upstream } from './server';

export interface OpenAIUpstreamOptions {
  /** The chat-completions path; default `/v1/chat/completions` (OpenAI and Together), Groq's is `/openai/v1/chat/completions`. */
  path?: string;
  /** Names the simulated provider in ids; `groq` adds Groq's `x_groq` members. */
  name?: string;
  /** Whether `n` above 1 is served (OpenAI) or answered 400 (Groq). Default true. */
  supportsN?: boolean;
  /** When set, only this bearer key is accepted; otherwise any non-empty one is. */
  apiKey?: string;
  /** Answers error scenarios as `hello`: a fallback route that works while the first one fails. */
  healthy?: boolean;
  /** Streamed usage rides on the finish chunk instead of a usage chunk of its own (Cerebras). */
  usageOnFinishChunk?: boolean;
  /** Request members answered 400, as an upstream that rejects them does (Cerebras: both penalties, ...). */
  rejects?: string[];
}



const errorBody = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

/** The tool call's arguments as a client sees them arrive: a few pieces of the JSON text. */
function argumentPieces(input: Record<string, unknown>): string[] {
  const text = JSON.stringify(input);
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 8) pieces.push(text.slice(i, i + 8));
  return pieces;
}

function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages.filter(isJson) : [];
  const last = messages.filter((message) => message.role === 'user').at(-1);
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return '';
  return last.content
    .filter(isJson)
    .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .join(' ');
}

function toolNames(body: Json): string[] {
  return (Array.isArray(body.tools) ? body.tools.filter(isJson) : []).flatMap((tool) => (isJson(tool.function) && typeof tool.function.name === 'string' ? [tool.function.name] : []));
}

type ToolCallOf = NonNullable<ReturnType<typeof toolCallOf>>;

export async function startOpenAIUpstream(options: OpenAIUpstreamOptions = {}): Promise<Upstream> {
  const path = options.path ?? '/v1/chat/completions';
  const name = options.name ?? 'openai';
  const supportsN = options.supportsN ?? true;
  const groq = name === 'groq';
  let served = 0;

  return startUpstream(async (request, res) => {
    const key = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
    if (!key || (options.apiKey !== undefined && key !== options.apiKey)) {
      return sendJson(
        res,
        401,
        errorBody(
          `Incorrect API key provided: ${key ? `${key.slice(0, 3)}***` : '(none)'}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          'invalid_request_error',
          'invalid_api_key',
        ),
      );
    }
    // OpenAI itself also serves the Responses API (`./openai-responses.ts`).
    if (name === 'openai' && request.method === 'POST' && request.path.split('?')[0] === '/v1/responses') return serveResponses(request, res);
    if (request.method !== 'POST' || request.path.split('?')[0] !== path) {
      return sendJson(res, 404, errorBody(`Unknown request URL: ${request.method} ${request.path}.`, 'invalid_request_error', 'unknown_url'));
    }
    const body = isJson(request.body) ? request.body : {};
    const rejected = options.rejects?.find((member) => body[member] !== undefined);
    if (rejected !== undefined) {
      return sendJson(res, 400, errorBody(`Unsupported parameter: ${rejected}.`, 'invalid_request_error', 'wrong_api_format', rejected));
    }
    const n = typeof body.n === 'number' ? body.n : 1;
    if (n > 1 && !supportsN) {
      // Groq's answer to n above 1.
      return sendJson(res, 400, { error: { message: "'n' : number must be at most 1", type: 'invalid_request_error' } });
    }

    served += 1;
    const reported = reportedUsage(lastUserText(body));
    const answer = {
      id: `chatcmpl-${name}-${served}`,
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === 'string' ? body.model : 'unknown',
      n,
      // `[fractional-usage]`: a compatible server that reports a count that is not whole;
      // `[reports-prompt-tokens=N]`: one that reports N uncached prompt tokens, whatever it was sent (a lying upstream).
      promptTokens: reported.prompt ?? promptTokensOf(request.body) + (lastUserText(body).includes('[fractional-usage]') ? 0.5 : 0),
      reported,
      groqId: `req_${name}${served}`,
      usageOnFinishChunk: options.usageOnFinishChunk ?? false,
      deepseek: name === 'deepseek',
      extra: name === 'cerebras' ? { time_info: { queue_time: 0.0001, prompt_time: 0.001, completion_time: 0.005, total_time: 0.007 } } : {},
    };
    // After a tool result the model answers in words, as the other simulators do.
    const answeringTool = Array.isArray(body.messages) && isJson(body.messages.at(-1)) && (body.messages.at(-1) as Json).role === 'tool';
    const scenario = options.healthy || answeringTool ? 'hello' : scenarioOf(lastUserText(body), name);
    switch (scenario) {
      case 'error402':
        return sendJson(res, 402, errorBody('You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', 'insufficient_quota'));
      case 'error401':
        return sendJson(res, 401, errorBody('Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'));
      case 'error500':
        return sendJson(
          res,
          500,
          errorBody('The server had an error while processing your request. Sorry about that!', 'server_error', null),
        );
      case 'error429':
        return sendJson(
          res,
          429,
          errorBody(
            `Rate limit reached for ${answer.model} on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 1s.`,
            'requests',
            'rate_limit_exceeded',
          ),
          { 'retry-after': retryAfterOf(lastUserText(body)) ?? '1' },
        );
      case 'die':
        if (body.stream !== true) return void res.socket?.destroy();
        return streamWords(res, request, answer, DIE_AFTER_WORDS, { groq, die: true });
      case 'slow':
        if (body.stream !== true) {
          await sleep(SLOW_WORDS.length * SLOW_CHUNK_MS);
          return sendJson(res, 200, textCompletion(answer, SLOW_WORDS, groq));
        }
        return streamWords(res, request, answer, SLOW_WORDS, { groq, delayMs: SLOW_CHUNK_MS });
      case 'silent':
        if (body.stream !== true) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.flushHeaders();
          if (await hungUp(res, SILENCE_MS)) return;
          return void res.end(JSON.stringify(textCompletion(answer, HELLO_WORDS, groq)));
        }
        return streamWords(res, request, answer, HELLO_WORDS, { groq, silenceMs: SILENCE_MS });
      case 'hang':
        if (await hungUp(res, SILENCE_MS)) return;
        break;
      case 'huge-line':
        if (body.stream !== true) break;
        return streamHugeLine(res, request, answer, groq);
      case 'tool': {
        const call = toolCallOf(toolNames(body), lastUserText(body));
        if (call !== undefined) {
          if (body.stream !== true) return sendJson(res, 200, toolCompletion(answer, call, groq));
          return streamToolCall(res, request, answer, call, groq);
        }
        break; // no tool offered: answer in words
      }
      case 'hello':
        break;
    }
    if (body.stream !== true) return sendJson(res, 200, textCompletion(answer, HELLO_WORDS, groq));
    return streamWords(res, request, answer, HELLO_WORDS, { groq });
  });
}

interface Answer {
  id: string;
  created: number;
  model: string;
  n: number;
  promptTokens: number;
  /** Cache and reasoning counts the prompt's tags ask for (`reportedUsage`). */
  reported: ReportedUsage;
  groqId: string;
  usageOnFinishChunk: boolean;
  /** Top-level members of the provider's own (Cerebras `time_info`). */
  extra: Json;
  /** Usage also in DeepSeek's `prompt_cache_hit_tokens` / `prompt_cache_miss_tokens`. */
  deepseek: boolean;
}

/**
 * OpenAI's usage: `prompt_tokens` counts cached tokens too, `completion_tokens` counts reasoning.
 * Cache writes, which OpenAI does not report, come as `cache_write_tokens` (as OpenRouter names
 * them) when a tag asks; as `deepseek`, cache hits and misses also come in DeepSeek's own fields.
 */
function usage(answer: Answer, words: number) {
  const { cacheRead, cacheWrite5m, cacheWrite1h, reasoning } = answer.reported;
  const writes = cacheWrite5m + cacheWrite1h;
  const prompt = answer.promptTokens + cacheRead + writes;
  const completion = words + reasoning;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: cacheRead, audio_tokens: 0, ...(writes > 0 ? { cache_write_tokens: writes } : {}) },
    completion_tokens_details: { reasoning_tokens: reasoning, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    ...(answer.deepseek ? { prompt_cache_hit_tokens: cacheRead, prompt_cache_miss_tokens: prompt - cacheRead } : {}),
  };
}

function completion(answer: Answer, message: Json, finishReason: string, completionTokens: number, groq: boolean) {
  return {
    id: answer.id,
    object: 'chat.completion',
    created: answer.created,
    model: answer.model,
    choices: Array.from({ length: answer.n }, (_, index) => ({ index, message, logprobs: null, finish_reason: finishReason })),
    usage: usage(answer, completionTokens),
    system_fingerprint: 'fp_simulator',
    ...(groq ? { x_groq: { id: answer.groqId } } : { service_tier: 'default' }),
    ...answer.extra,
  };
}

function textCompletion(answer: Answer, words: string[], groq: boolean) {
  const message = { role: 'assistant', content: words.join(''), refusal: null, annotations: [] };
  return completion(answer, message, 'stop', words.length * answer.n, groq);
}

function toolCompletion(answer: Answer, call: ToolCallOf, groq: boolean) {
  const pieces = argumentPieces(call.input);
  const toolCall = { id: 'call_sim_1', type: 'function', function: { name: call.name, arguments: pieces.join('') } };
  const message = { role: 'assistant', content: null, tool_calls: [toolCall], refusal: null, annotations: [] };
  return completion(answer, message, 'tool_calls', pieces.length * answer.n, groq);
}

/** One SSE writer for an answer: chunk frames, the finish frame, the optional usage frame, `[DONE]`. */
function chunkStream(res: ServerResponse, request: RecordedRequest, answer: Answer, groq: boolean) {
  const body = isJson(request.body) ? request.body : {};
  const includeUsage = isJson(body.stream_options) && body.stream_options.include_usage === true;
  const sse = startSse(res);
  let closed = false;
  res.on('close', () => (closed = true));
  const frame = (choices: unknown[], extra: Json = {}) => {
    const chunk = {
      id: answer.id,
      object: 'chat.completion.chunk',
      created: answer.created,
      model: answer.model,
      system_fingerprint: 'fp_simulator',
      choices,
      ...(includeUsage ? { usage: null } : {}),
      ...extra,
    };
    sse.write(`data: ${JSON.stringify(chunk)}\n\n`);
  };
  const eachChoice = (delta: Json, finishReason: string | null = null) =>
    Array.from({ length: answer.n }, (_, index) => ({ index, delta, logprobs: null, finish_reason: finishReason }));
  return {
    sse,
    isClosed: () => closed,
    delta: (delta: Json, extra?: Json) => frame(eachChoice(delta), extra),
    end: (finishReason: string, completionTokens: number) => {
      const used = usage(answer, completionTokens);
      const onFinish = answer.usageOnFinishChunk && includeUsage ? { usage: used, ...answer.extra } : {};
      frame(eachChoice({}, finishReason), groq ? { x_groq: { id: answer.groqId, usage: used } } : onFinish);
      if (includeUsage && !answer.usageOnFinishChunk) frame([], { usage: used });
      sse.write('data: [DONE]\n\n');
      sse.end();
    },
  };
}

/** Waits `ms`, or less if the caller closes the connection first: whether it did. */
function hungUp(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      res.off('close', onClose);
      resolve(false);
    }, ms);
    const onClose = () => {
      clearTimeout(timer);
      resolve(true);
    };
    res.once('close', onClose);
  });
}

async function streamWords(
  res: ServerResponse,
  request: RecordedRequest,
  answer: Answer,
  words: string[],
  options: { groq: boolean; die?: boolean; delayMs?: number; silenceMs?: number },
): Promise<void> {
  const stream = chunkStream(res, request, answer, options.groq);
  stream.delta({ role: 'assistant', content: '', refusal: null }, options.groq ? { x_groq: { id: answer.groqId } } : {});
  if (options.silenceMs && (await hungUp(res, options.silenceMs))) return;
  for (const word of words) {
    if (stream.isClosed()) return;
    if (options.delayMs) await sleep(options.delayMs);
    stream.delta({ content: word });
  }
  if (options.die) {
    // Let the words leave the socket before the connection drops.
    await sleep(50);
    return stream.sse.die();
  }
  stream.end('stop', words.length * answer.n);
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}

/** The role chunk, then one `data:` line of `HUGE_LINE_BYTES` that never ends, then the answer. */
async function streamHugeLine(res: ServerResponse, request: RecordedRequest, answer: Answer, groq: boolean): Promise<void> {
  const stream = chunkStream(res, request, answer, groq);
  stream.delta({ role: 'assistant', content: '', refusal: null });
  const piece = 'x'.repeat(64 * 1024);
  stream.sse.write('data: ');
  for (let sent = 0; sent < HUGE_LINE_BYTES; sent += piece.length) {
    if (stream.isClosed()) return;
    // Respects backpressure, so a reader that stops reading stops the writes.
    if (!res.write(piece)) await drainedOrClosed(res);
  }
  stream.sse.write('\n\n');
  for (const word of HELLO_WORDS) stream.delta({ content: word });
  stream.end('stop', HELLO_WORDS.length * answer.n);
}

function streamToolCall(res: ServerResponse, request: RecordedRequest, answer: Answer, call: ToolCallOf, groq: boolean): void {
  const stream = chunkStream(res, request, answer, groq);
  const pieces = argumentPieces(call.input);
  stream.delta(
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id: 'call_sim_1', type: 'function', function: { name: call.name, arguments: '' } }],
      refusal: null,
    },
    groq ? { x_groq: { id: answer.groqId } } : {},
  );
  for (const piece of pieces) stream.delta({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
  stream.end('tool_calls', pieces.length * answer.n);
}
