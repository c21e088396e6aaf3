/**
 * Anthropic itself: the client's Messages body goes through intact but the model id (and the
 * output cap when D5 lowered it), with the client's `anthropic-version`, `anthropic-beta` and
 * `?beta=true`; the answer passes back event by event, but for the last `message_delta`, held
 * back until the charge is known so `x_service` can join it (D15).
 */
import { anthropicErrorMessage } from '../../../../providers/anthropic/response';
import { ANTHROPIC_VERSION, isRecord, readUsage, stringOf, toUsage, type AnthropicUsage } from '../../../../providers/anthropic/wire';
import { UpstreamStreamError, type ChatTarget, type ResponseContext, type SseEvent, type UpstreamRequest, type Usage } from '../../../../providers/chat/types';
import type { NativeStreamReader, NativeWire, SseText, XService } from '../format';
import { errorEvent, sse } from './encoder';
import { splitBetas } from './unpriced';
import type { MessagesBody } from './schema';


export function nativeMessagesRequest(
  body: MessagesBody,
  target: ChatTarget,
  options: { maxTokens: number | null; clientHeaders: Headers; clientQuery: string },
  path = '/messages',
): UpstreamRequest {
  const upstream: Record<string, unknown> = { ...body, model: target.upstreamModel };
  if (options.maxTokens !== null) {
    upstream.max_tokens = options.maxTokens;
    // Anthropic refuses a thinking budget that is not below max_tokens.
    const thinking = body.thinking;
    if (thinking?.budget_tokens !== undefined && thinking.budget_tokens >= options.maxTokens) upstream.thinking = { ...thinking, budget_tokens: Math.max(1, options.maxTokens - 1) };
  }
  const headers: Record<string, string> = {
    'x-api-key': target.apiKey,
    'anthropic-version': options.clientHeaders.get('anthropic-version') ?? ANTHROPIC_VERSION,
    'content-type': 'application/json',
  };
  // The client's betas, as they came but for those billed above the catalog's prices.
  const betas = splitBetas(options.clientHeaders.get('anthropic-beta')).passed;
  if (betas !== null) headers['anthropic-beta'] = betas;
  const beta = new URLSearchParams(options.clientQuery).get('beta');
  return { url: `${target.baseUrl}${path}${beta !== null ? `?beta=${encodeURIComponent(beta)}` : ''}`, headers, body: JSON.stringify(upstream) };
}

/** The text an answer delivered (text, thinking, tool input): D33's fallback when no usage is reported. */
function blockText(block: Record<string, unknown>): string {
  return (stringOf(block.text) ?? '') + (stringOf(block.thinking) ?? '') + (block.type === 'tool_use' ? JSON.stringify(block.input ?? {}) : '');
}

function parseData(event: SseEvent): Record<string, unknown> {
  try {
    const data: unknown = JSON.parse(event.data);
    return isRecord(data) ? data : {};
  } catch {
    return {};
  }
}

export function nativeStreamReader(context: ResponseContext): NativeStreamReader {
  let usage: AnthropicUsage | null = null;
  let held: Record<string, unknown> | null = null;
  const addUsage = (value: unknown) => {
    const seen = readUsage(value);
    // message_delta counts are cumulative and repeat the input counts on newer API versions.
    if (seen) usage = { ...usage, ...seen };
  };
  const asCame = (event: SseEvent, type: string | undefined): SseText => `${type ? `event: ${event.event ?? type}\n` : ''}data: ${event.data}\n\n`;

  return {
    push(event) {
      const data = parseData(event);
      const type = event.event ?? stringOf(data.type);
      switch (type) {
        case 'message_start': {
          const message = isRecord(data.message) ? data.message : {};
          addUsage(message.usage);
          // The model as the client named it, as in the whole answer.
          return { out: sse('message_start', { ...data, message: { ...message, model: context.model } }), delivered: false, finished: false, text: '' };
        }
        case 'content_block_start': {
          const block = isRecord(data.content_block) ? data.content_block : {};
          const text = (stringOf(block.text) ?? '') + (stringOf(block.thinking) ?? '');
          return { out: asCame(event, type), delivered: text !== '' || block.type === 'tool_use', finished: false, text };
        }
        case 'content_block_delta': {
          const delta = isRecord(data.delta) ? data.delta : {};
          const text = (stringOf(delta.text) ?? '') + (stringOf(delta.thinking) ?? '') + (stringOf(delta.partial_json) ?? '');
          return { out: asCame(event, type), delivered: text !== '' || delta.type === 'signature_delta', finished: false, text };
        }
        case 'message_delta': {
          addUsage(data.usage);
          // Only the last one is held: an earlier one (there is one in practice) goes out now.
          const out = held ? sse('message_delta', held) : '';
          held = data;
          return { out, delivered: false, finished: false, text: '' };
        }
        case 'message_stop':
          return { out: '', delivered: false, finished: true, text: '' };
        case 'error': {
          const error = isRecord(data.error) ? data.error : {};
          throw new UpstreamStreamError(stringOf(error.message) ?? 'Anthropic reported an error mid-stream.');
        }
        default:
          // ping, and event types added after this was written: passed on as they came.
          return { out: asCame(event, type), delivered: false, finished: false, text: '' };
      }
    },
    usage(): Usage | null {
      return usage ? toUsage(usage) : null;
    },
    end(billed: Usage | undefined, xService: XService | undefined): SseText {
      const last = held ?? { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: billed ? { output_tokens: billed.outputTokens } : { output_tokens: 0 } };
      return sse('message_delta', { ...last, ...(xService && { x_service: xService }) }) + sse('message_stop', { type: 'message_stop' });
    },
    error: errorEvent,
  };
}

export const MESSAGES_NATIVE: NativeWire<MessagesBody> = {
  provider: 'anthropic',
  buildRequest: (body, target, options) => nativeMessagesRequest(body, target, options),
  parseResponse(body, context) {
    const message = isRecord(body) ? body : {};
    const anthropicUsage = readUsage(message.usage);
    const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
    return { body: { ...message, model: context.model }, usage: anthropicUsage ? toUsage(anthropicUsage) : null, text: blocks.map(blockText).join('') };
  },
  streamReader: nativeStreamReader,
  errorMessage: anthropicErrorMessage,
};
