/**
 * The chat-completions shapes the gateway speaks to clients (OpenAI's wire format), and the
 * contract every chat provider adapter implements. Adapters are pure: request in, upstream
 * request out; upstream JSON or SSE events in, chat-completion objects or chunks out.
 */

import type { z } from '@hono/zod-openapi';
import type * as schema from '../../products/chat/request-schema';

export type TextPart = z.output<typeof schema.TextPart>;
export type ImagePart = z.output<typeof schema.ImagePart>;
export type FilePart = z.output<typeof schema.FilePart>;
export type ContentPart = z.output<typeof schema.ContentPart>;
export type ToolCall = z.output<typeof schema.ToolCall>;
/** A message as validated: `content` may be absent or null (an assistant turn that only calls tools). */
export type ChatMessage = z.output<typeof schema.ChatMessage>;
export type FunctionTool = z.output<typeof schema.FunctionTool>;
/** What a client sends to `POST /v1/chat/completions`, as validated. Unknown extra members are allowed. */
export type ChatRequest = z.output<typeof schema.ChatCompletionRequest>;

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter';

export interface ChatUsageWire {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: {
    index: number;
    message: { role: 'assistant'; content: string | null; tool_calls?: ToolCall[]; refusal?: string | null };
    finish_reason: FinishReason | null;
    logprobs?: unknown;
  }[];
  usage?: ChatUsageWire;
  [extra: string]: unknown;
}

export interface ChunkToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: {
    index: number;
    delta: { role?: 'assistant'; content?: string | null; tool_calls?: ChunkToolCallDelta[]; refusal?: string | null };
    finish_reason: FinishReason | null;
    logprobs?: unknown;
  }[];
  usage?: ChatUsageWire | null;
  [extra: string]: unknown;
}

/**
 * Token counts as billed (D31). `inputTokens` excludes cache reads and writes, which are priced on
 * their own; `cacheWriteTokens` counts 5-minute writes, `cacheWrite1hTokens` 1-hour writes (absent:
 * none). `outputTokens` includes reasoning/thinking tokens; `reasoningTokens` says how many of them
 * were reasoning, where the upstream reports it (shown, never billed apart).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cacheWrite1hTokens?: number;
  reasoningTokens?: number;
}

/** Where one upstream call goes. */
export interface ChatTarget {
  /** Provider base URL without a trailing slash; the adapter appends its path. */
  baseUrl: string;
  apiKey: string;
  /** The model id the upstream expects. */
  upstreamModel: string;
}

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Fetches an https image for upstreams that only take inline base64 (injected, so adapters stay testable). */
export type ImageFetcher = (url: string) => Promise<{ mimeType: string; base64: string }>;

export interface ResponseContext {
  /** The slug the client asked for; answers carry it as `model`. */
  model: string;
  /** Used for `id` where the upstream gives none (`chatcmpl-<requestId>`). */
  requestId: string;
  /** Unix seconds, for `created`. */
  created: number;
}

/** One Server-Sent Event as read off the upstream stream. */
export interface SseEvent {
  event?: string;
  data: string;
}

export interface StreamTranslator {
  /** Zero or more chat chunks for one upstream event. Throws `UpstreamStreamError` for an error event. */
  push(event: SseEvent): ChatCompletionChunk[];
  /** Chunks still owed when the upstream stream ended (e.g. the final finish_reason). */
  finish(): ChatCompletionChunk[];
  /** Usage seen so far, from whichever event carried it; null when none did. */
  usage(): Usage | null;
}

export interface ChatAdapter {
  /**
   * Members the upstream rejects though its parameter group passes them on (Cerebras answers 400
   * to both penalties): removed before the call and announced in `x-service-unsupported-params`.
   */
  unapplied?: readonly string[];
  /** The upstream request for a client request (`request.stream` decides streaming). */
  buildRequest(request: ChatRequest, target: ChatTarget, fetchImage: ImageFetcher): Promise<UpstreamRequest>;
  /** A non-streamed upstream answer as a chat completion, with its usage. */
  parseResponse(body: unknown, context: ResponseContext): { completion: ChatCompletion; usage: Usage | null };
  /** A translator for one streamed answer. */
  streamTranslator(context: ResponseContext): StreamTranslator;
  /** A human message from an upstream error body (JSON already parsed, or text). */
  errorMessage(status: number, body: unknown): string;
}

/** An error event inside an upstream stream (the stream must end with an error frame, never cleanly). */
export class UpstreamStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamStreamError';
  }
}
