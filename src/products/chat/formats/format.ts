import type { ChatCompletion, ChatCompletionChunk, ChatRequest, ChatTarget, ResponseContext, SseEvent, UpstreamRequest, Usage } from '../../../providers/chat/types';
import type { ProviderId } from '../../../providers/ids';

/**
 * A client wire format of the chat product (D30): Chat Completions, Anthropic Messages or OpenAI
 * Responses. Each is a set of routes over one pipeline: its body becomes the internal request (the
 * Chat Completions shape), which is planned, held, dispatched and settled as one; only the ends
 * differ. A route whose provider speaks the format itself (`native`) gets the client's body intact
 * but the model id, and its answer passes back event by event; any other route is translated.
 */
export interface ChatFormat<Body> {
  /** The route's path, as the request lookup records it. */
  path: string;
  /**
   * The internal request this body means, for planning (the model, the hold's bound, parameter
   * rules) and for translated upstreams. Throws a 400 `GatewayError` naming a member that cannot be
   * carried and would change the answer's shape (D30).
   */
  toChat(body: Body): ChatRequest;
  /**
   * UTF-8 bytes of what a native upstream receives beyond what `toChat` carried (members with no
   * internal counterpart): held as prompt tokens, one per byte (D33).
   */
  uncarriedBytes(body: Body): number;
  /** A whole translated answer in this format, its usage the billed one. */
  fromCompletion(completion: ChatCompletion, usage: Usage, context: ResponseContext): unknown;
  /** Writes one translated stream's internal chunks as this format's events. */
  encoder(context: ResponseContext): StreamEncoder;
  /** The provider that speaks this format, and how its answers are read as they pass through. */
  native?: NativeWire<Body>;
  /** A `max_tokens` above a translated model's output cap means the cap (Messages, whose clients guess high), on fallback models too (D34). */
  readsHighCapAsCap?: true;
}

/** What the final event tells the client (D15): the request id, cost and balance, once the charge is acknowledged. */
export type XService = Record<string, string>;

/** SSE text: zero or more whole events (`event: ...\ndata: ...\n\n`). */
export type SseText = string;

/** Writes internal chat chunks as a format's stream. */
export interface StreamEncoder {
  /** The events for one internal chunk. */
  chunk(chunk: ChatCompletionChunk): SseText;
  /**
   * The events that end a complete answer: its billed usage (none when its settlement never
   * began), and `x_service` when the charge was acknowledged.
   */
  end(usage: Usage | undefined, xService: XService | undefined): SseText;
  /** The events that end a failed answer: the format's error event. */
  error(message: string, xService: XService | undefined): SseText;
}

/** What one upstream event of a native stream brings. */
export interface NativeStep {
  /** The events to write now (the event as it came, or nothing when it is held back for the end). */
  out: SseText;
  /** Whether any of the answer reached the client with it (text, thinking, a tool call: D6). */
  delivered: boolean;
  /** Whether the answer is complete with it (Anthropic's `message_stop`, OpenAI's `response.completed`). */
  finished: boolean;
  /** Its output text, counted when the upstream reports no usage (D33's fallback estimate). */
  text: string;
}

/** Reads one native stream as it passes through. Throws `UpstreamStreamError` for an error event. */
export interface NativeStreamReader {
  push(event: SseEvent): NativeStep;
  /** The usage reported so far; null when none was. */
  usage(): Usage | null;
  /** What was held back, written once the charge is known (D15: `x_service` in the last `message_delta` / `response.completed`). */
  end(usage: Usage | undefined, xService: XService | undefined): SseText;
  /** The format's error event. */
  error(message: string, xService: XService | undefined): SseText;
}

/** A provider that speaks the client's format: the body goes through intact but the model id (D30). */
export interface NativeWire<Body> {
  provider: ProviderId;
  /**
   * The upstream request: the client's body with the route's model id, the output cap D5 lowered
   * to when it did (`maxTokens`), and the client's headers the provider reads (`anthropic-beta`,
   * the `?beta=true` query) passed on.
   */
  buildRequest(body: Body, target: ChatTarget, options: { maxTokens: number | null; clientHeaders: Headers; clientQuery: string }): UpstreamRequest;
  /** A non-streamed answer's usage and text; the body itself goes to the client as it came (the model id the client's). */
  parseResponse(body: unknown, context: ResponseContext): { body: unknown; usage: Usage | null; text: string };
  streamReader(context: ResponseContext): NativeStreamReader;
  errorMessage(status: number, body: unknown): string;
}
