/**
 * One adapter for every upstream that speaks OpenAI's chat-completions format: OpenAI itself
 * (https://platform.openai.com/docs/api-reference/chat) and the compatible providers. The client
 * request already has this shape, so the work is small: swap the model, apply each provider's
 * documented renames and drops, ask for streamed usage, and read usage back from wherever the
 * provider puts it.
 */
import { GatewayError } from '../../errors';
import {
  UpstreamStreamError,
  type ChatAdapter,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ResponseContext,
  type Usage,
} from '../chat/types';

export interface OpenAICompatibleOptions {
  /** Appended to the provider's base URL: `/v1/chat/completions` for OpenAI, `/chat/completions` for the rest. */
  path: string;
  /** Client field -> upstream field (Mistral: `seed` -> `random_seed`). A value the client already set under the new name wins. */
  rename?: Record<string, string>;
  /** Fields the upstream rejects outright. `messages[].name` removes `name` from every message. */
  drop?: string[];
  /** Top-level members the upstream rejects that its group would pass on: announced as not applied (`ChatAdapter.unapplied`). */
  unapplied?: readonly string[];
  /**
   * Whether to ask for the usage frame with `stream_options.include_usage` (default true). Off for
   * upstreams that put usage on the last chunk unasked and do not document `stream_options`.
   */
  requestStreamUsage?: boolean;
  /**
   * The upstream counts reasoning tokens outside `completion_tokens` (xAI: "counted separately
   * from completion_tokens, but counted in the total_tokens"), so output = completion + reasoning.
   */
  reasoningOutsideCompletion?: boolean;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Finish reasons some compatible upstreams use outside OpenAI's set (Together `eos`, Mistral `model_length`). */
const FINISH_REASONS: Record<string, string> = { eos: 'stop', model_length: 'length' };

export function openAICompatibleChat(options: OpenAICompatibleOptions): ChatAdapter {
  const { path, rename = {}, drop = [], unapplied = [], requestStreamUsage = true, reasoningOutsideCompletion = false } = options;

  const usageFrom = (raw: unknown): Usage | null => {
    if (!isRecord(raw)) return null;
    const prompt = numberOr(raw.prompt_tokens);
    const completion = numberOr(raw.completion_tokens);
    if (prompt === undefined && completion === undefined) return null;
    const promptDetails = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
    const completionDetails = isRecord(raw.completion_tokens_details) ? raw.completion_tokens_details : {};
    // DeepSeek reports cache hits and misses in its own fields; prompt_tokens = hit + miss.
    const cacheRead = numberOr(raw.prompt_cache_hit_tokens) ?? numberOr(promptDetails.cached_tokens) ?? 0;
    // Writes, where a compatible upstream reports them (OpenRouter's `cache_write_tokens`, or an
    // Anthropic-style `cache_creation_input_tokens`): part of prompt_tokens, as cached_tokens is.
    const cacheWrite = numberOr(promptDetails.cache_write_tokens) ?? numberOr(raw.cache_creation_input_tokens) ?? 0;
    const reasoning = numberOr(completionDetails.reasoning_tokens) ?? 0;
    return {
      inputTokens: numberOr(raw.prompt_cache_miss_tokens) ?? Math.max(0, (prompt ?? 0) - cacheRead - cacheWrite),
      outputTokens: (completion ?? 0) + (reasoningOutsideCompletion ? reasoning : 0),
      cacheReadTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
      reasoningTokens: reasoning,
    };
  };

  return {
    unapplied,
    async buildRequest(request, target) {
      const body: Json = { ...request, model: target.upstreamModel };
      if (request.stream === true && requestStreamUsage) {
        body.stream_options = { ...(isRecord(request.stream_options) ? request.stream_options : {}), include_usage: true };
      } else if (request.stream !== true) {
        // OpenAI answers 400 to stream_options on a non-streamed request.
        delete body.stream_options;
      }
      for (const [from, to] of Object.entries(rename)) {
        if (!(from in body)) continue;
        if (body[to] === undefined) body[to] = body[from];
        delete body[from];
      }
      for (const field of drop) dropField(body, field);
      return {
        url: `${target.baseUrl}${path}`,
        headers: { Authorization: `Bearer ${target.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      };
    },

    parseResponse(body, context) {
      if (!isRecord(body) || !Array.isArray(body.choices)) {
        throw new GatewayError('provider_error', 'The upstream answered with something that is not a chat completion.');
      }
      const completion = {
        ...body,
        id: typeof body.id === 'string' ? body.id : `chatcmpl-${context.requestId}`,
        object: 'chat.completion',
        created: numberOr(body.created) ?? context.created,
        model: context.model,
        choices: body.choices.map((choice) => normalizeChoice(choice, 'message')),
      } as ChatCompletion; // the upstream's own chat completion, passed through member for member
      return { completion, usage: usageFrom(body.usage) };
    },

    streamTranslator(context: ResponseContext) {
      let usage: Usage | null = null;
      return {
        push(event) {
          const data = event.data.trim();
          if (data === '' || data === '[DONE]') return [];
          // OpenAI reports a failure after the stream started as a data line `{"error": {...}}`.
          const chunk = event.event === 'error' ? parseEventData(data, data) : parseEventData(data);
          if (event.event === 'error' || (isRecord(chunk) && chunk.error !== undefined && chunk.error !== null)) {
            throw new UpstreamStreamError(errorText(chunk) ?? 'The upstream stream failed.');
          }
          if (!isRecord(chunk)) return [];
          // The include_usage frame, or usage riding on the last choice chunk (Groq: x_groq.usage).
          const seen = usageFrom(chunk.usage) ?? usageFrom(isRecord(chunk.x_groq) ? chunk.x_groq.usage : undefined);
          if (seen) usage = seen;
          // A chunk without choices only carried usage: the gateway sends its own usage frame.
          if (!Array.isArray(chunk.choices) || chunk.choices.length === 0) return [];
          const { usage: _usage, ...rest } = chunk;
          return [
            {
              ...rest,
              id: typeof chunk.id === 'string' ? chunk.id : `chatcmpl-${context.requestId}`,
              object: 'chat.completion.chunk',
              created: numberOr(chunk.created) ?? context.created,
              model: context.model,
              choices: chunk.choices.map((choice) => normalizeChoice(choice, 'delta')),
            } as ChatCompletionChunk, // the upstream's own chunk, passed through member for member
          ];
        },
        finish: () => [],
        usage: () => usage,
      };
    },

    errorMessage(status, body) {
      return errorText(body) ?? `The upstream answered HTTP ${status}.`;
    },
  };
}

function dropField(body: Json, field: string): void {
  const perMessage = /^messages\[\]\.(.+)$/.exec(field)?.[1];
  if (perMessage === undefined) {
    delete body[field];
  } else if (Array.isArray(body.messages)) {
    body.messages = body.messages.map((message: unknown) => {
      if (!isRecord(message) || !(perMessage in message)) return message;
      const { [perMessage]: _dropped, ...kept } = message;
      return kept;
    });
  }
}

/** The event's JSON; `fallback` (when given) instead of failing on text that is not JSON. */
function parseEventData(data: string, fallback?: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    if (fallback !== undefined) return fallback;
    throw new UpstreamStreamError('The upstream sent a stream event that is not JSON.');
  }
}

/**
 * Maps non-OpenAI finish reasons, and flattens content given as an array of chunks (Mistral's
 * Magistral answers `[{type: 'thinking', ...}, {type: 'text', text}]`) into the text, with the
 * thinking moved to `reasoning_content` as DeepSeek and others name it.
 */
function normalizeChoice(choice: unknown, key: 'message' | 'delta'): unknown {
  if (!isRecord(choice)) return choice;
  const out: Json = { ...choice };
  if (typeof choice.finish_reason === 'string' && choice.finish_reason in FINISH_REASONS) {
    out.finish_reason = FINISH_REASONS[choice.finish_reason];
  }
  const message = choice[key];
  if (isRecord(message) && Array.isArray(message.content)) {
    const thinking = textOf(message.content, 'thinking');
    out[key] = { ...message, content: textOf(message.content, 'text'), ...(thinking ? { reasoning_content: thinking } : {}) };
  }
  return out;
}

/** The text of every `type` part in a content array; thinking parts nest their own text parts. */
function textOf(parts: unknown[], type: 'text' | 'thinking'): string {
  return parts
    .map((part) => {
      if (!isRecord(part) || part.type !== type) return '';
      if (type === 'text') return typeof part.text === 'string' ? part.text : '';
      return Array.isArray(part.thinking) ? textOf(part.thinking, 'text') : typeof part.thinking === 'string' ? part.thinking : '';
    })
    .join('');
}

/**
 * The human message in an upstream error body: OpenAI `{error: {message}}`, xAI `{error: "..."}`,
 * Mistral `{message: "..."}` (an object for validation errors), FastAPI-style `{detail}`, or text.
 */
function errorText(body: unknown): string | undefined {
  if (typeof body === 'string') {
    const text = body.trim();
    return text && !text.startsWith('<') ? text.slice(0, 500) : undefined;
  }
  if (!isRecord(body)) return undefined;
  if (typeof body.error === 'string' && body.error) return body.error;
  if (isRecord(body.error)) return errorText(body.error);
  if (typeof body.message === 'string' && body.message) return body.message;
  if (isRecord(body.message)) return errorText(body.message) ?? JSON.stringify(body.message).slice(0, 500);
  if (typeof body.detail === 'string' && body.detail) return body.detail;
  if (Array.isArray(body.detail)) {
    const issues = body.detail.filter(isRecord).map((issue) => {
      const where = Array.isArray(issue.loc) ? issue.loc.join('.') : '';
      return where ? `${where}: ${String(issue.msg)}` : String(issue.msg);
    });
    return issues.length > 0 ? issues.join('; ') : undefined;
  }
  return undefined;
}
