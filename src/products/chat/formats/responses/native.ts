import { UpstreamStreamError, type ResponseContext, type Usage } from '../../../../providers/chat/types';
import type { NativeStreamReader, NativeWire, SseText, XService } from '../format';
import { sseEvent } from './encoder';
import type { ResponsesBody } from './schema';

/**
 * OpenAI's own Responses API (https://platform.openai.com/docs/api-reference/responses): the
 * client's body goes through intact but the model id (and the output cap when D5 lowered it);
 * every event comes back as it came, the model id the client's, except `response.completed`
 * (or `.incomplete`), held back so `x_service` can ride beside its `response` (D15).
 */

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** OpenAI's usage: `input_tokens` includes cached ones, `output_tokens` includes reasoning. */
export function usageOf(raw: unknown): Usage | null {
  if (!isRecord(raw) || (typeof raw.input_tokens !== 'number' && typeof raw.output_tokens !== 'number')) return null;
  const inputDetails = isRecord(raw.input_tokens_details) ? raw.input_tokens_details : {};
  const outputDetails = isRecord(raw.output_tokens_details) ? raw.output_tokens_details : {};
  const cached = count(inputDetails.cached_tokens);
  return {
    inputTokens: Math.max(0, count(raw.input_tokens) - cached),
    outputTokens: count(raw.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: count(outputDetails.reasoning_tokens),
  };
}

/** The text of a Response's output (messages and function call arguments): D33's fallback count. */
export function outputText(response: unknown): string {
  if (!isRecord(response) || !Array.isArray(response.output)) return '';
  return response.output
    .filter(isRecord)
    .map((item) => {
      if (item.type === 'function_call') return String(item.arguments ?? '');
      if (!Array.isArray(item.content)) return '';
      return item.content.filter(isRecord).map((part) => String(part.text ?? part.refusal ?? '')).join('');
    })
    .join('');
}

/**
 * What the client sees of OpenAI's Response: the model id it asked for, and the
 * `previous_response_id` it sent (the gateway sent OpenAI the whole history instead).
 */
export interface Echo {
  model: string;
  previousResponseId?: string | null;
}
const echoed = (response: unknown, echo: Echo) =>
  isRecord(response) ? { ...response, model: echo.model, ...(echo.previousResponseId && { previous_response_id: echo.previousResponseId }) } : response;

/** Events that end an answer: held back for `x_service`. */
const FINAL = new Set(['response.completed', 'response.incomplete']);
/** Events that carry the answer itself to the client (D6: from then on, it is billed). */
const DELIVERING = /^response\.(output_text|refusal|function_call_arguments|reasoning_text|reasoning_summary_text|custom_tool_call_input)\.delta$|^response\.output_item\.added$/;

export interface ResponsesNativeReader extends NativeStreamReader {
  /** The final Response as OpenAI sent it (its output items, for the store); null until it came. */
  final(): Json | null;
}

export function nativeReader(context: ResponseContext, previousResponseId?: string | null): ResponsesNativeReader {
  const echo: Echo = { model: context.model, previousResponseId };
  let usage: Usage | null = null;
  let held: Json | null = null;
  let sequence = 0;
  return {
    push(event) {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return { out: '', delivered: false, finished: false, text: '' };
      }
      if (!isRecord(data)) return { out: '', delivered: false, finished: false, text: '' };
      const type = typeof data.type === 'string' ? data.type : (event.event ?? '');
      if (typeof data.sequence_number === 'number') sequence = data.sequence_number + 1;
      if (type === 'error') throw new UpstreamStreamError(String(data.message ?? 'The provider reported an error.'));
      if (type === 'response.failed') {
        const error = isRecord(data.response) && isRecord(data.response.error) ? data.response.error : {};
        throw new UpstreamStreamError(String(error.message ?? 'The provider could not complete the response.'));
      }
      if (FINAL.has(type)) {
        held = { ...data, response: echoed(data.response, echo) };
        usage = usageOf(isRecord(data.response) ? data.response.usage : undefined);
        return { out: '', delivered: false, finished: true, text: '' };
      }
      const text = typeof data.delta === 'string' ? data.delta : '';
      // Events that carry the whole Response name the model; the client sees the id it asked for.
      const out: SseText = 'response' in data ? sseEvent(type, { ...data, type, response: echoed(data.response, echo) }) : `event: ${type}\ndata: ${event.data}\n\n`;
      return { out, delivered: DELIVERING.test(type), finished: false, text };
    },
    usage: () => usage,
    end(_usage: Usage | undefined, xService: XService | undefined) {
      if (!held) return '';
      const { type, ...rest } = held;
      return sseEvent(String(type), { ...rest, ...(xService && { x_service: xService }) });
    },
    error(message: string, xService: XService | undefined) {
      return sseEvent('error', { code: 'provider_error', message, param: null, sequence_number: sequence++, ...(xService && { x_service: xService }) });
    },
    final: () => (held && isRecord(held.response) ? held.response : null),
  };
}

export function nativeWire(onFinal?: (response: Json) => void, previousResponseId?: string | null): NativeWire<ResponsesBody> {
  return {
    provider: 'openai',
    buildRequest(body, target, { maxTokens }) {
      const upstream: Json = { ...body, model: target.upstreamModel };
      if (maxTokens !== null) upstream.max_output_tokens = maxTokens;
      return {
        url: `${target.baseUrl}/responses`,
        headers: { Authorization: `Bearer ${target.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(upstream),
      };
    },
    parseResponse(body, context) {
      const response = echoed(body, { model: context.model, previousResponseId });
      if (isRecord(response)) onFinal?.(response);
      return { body: response, usage: usageOf(isRecord(body) ? body.usage : undefined), text: outputText(body) };
    },
    streamReader: (context) => nativeReader(context, previousResponseId),
    errorMessage(status, body) {
      if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') return body.error.message;
      return typeof body === 'string' && body ? body.slice(0, 500) : `OpenAI answered ${status}.`;
    },
  };
}
