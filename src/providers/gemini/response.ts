import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChunkToolCallDelta,
  FinishReason,
  ResponseContext,
  SseEvent,
  StreamTranslator,
  ToolCall,
  Usage,
} from '../chat/types';
import { UpstreamStreamError } from '../chat/types';
import { usageWire } from '../chat/usage';
import { toolCallId } from './tool-ids';
import { isGoogleError, type GeminiPart, type GeminiResponse, type GeminiUsageMetadata } from './wire';

/** Finish reasons meaning Google withheld output; anything not listed and not MAX_TOKENS is a plain stop. */
const FILTERED = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
]);

/** Gemini ends a tool-calling turn with STOP, so whether the answer called a tool decides. */
function finishReason(reason: string, calledTools: boolean): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (FILTERED.has(reason)) return 'content_filter';
  return calledTools ? 'tool_calls' : 'stop';
}

/** Billed usage: `promptTokenCount` includes the cached part, which is priced apart; thinking is output. */
export function usageOf(metadata: GeminiUsageMetadata | undefined): Usage | null {
  if (!metadata) return null;
  const cached = count(metadata.cachedContentTokenCount);
  return {
    inputTokens: Math.max(0, count(metadata.promptTokenCount) - cached),
    outputTokens: count(metadata.candidatesTokenCount) + count(metadata.thoughtsTokenCount),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
    reasoningTokens: count(metadata.thoughtsTokenCount),
  };
}

/** A count as the wire should carry it, a number; anything else (absent, a string) counts as none, never concatenated. */
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

function toolCallOf(part: GeminiPart & { functionCall: NonNullable<GeminiPart['functionCall']> }): ToolCall {
  return {
    id: toolCallId(part.thoughtSignature),
    type: 'function',
    function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
  };
}

/** Answer text and tool calls of one response's first candidate (thought summaries are not answer text). */
function partsOf(response: GeminiResponse): { text: string; calls: ToolCall[] } {
  let text = '';
  const calls: ToolCall[] = [];
  for (const part of response.candidates?.[0]?.content?.parts ?? []) {
    if (part.functionCall) calls.push(toolCallOf({ ...part, functionCall: part.functionCall }));
    else if (typeof part.text === 'string' && !part.thought) text += part.text;
  }
  return { text, calls };
}

export function parseGeminiResponse(body: unknown, context: ResponseContext): { completion: ChatCompletion; usage: Usage | null } {
  const response = (body ?? {}) as GeminiResponse;
  const candidate = response.candidates?.[0];
  const { text, calls } = partsOf(response);
  const usage = usageOf(response.usageMetadata);
  // No candidate at all means the prompt itself was blocked (`promptFeedback.blockReason`).
  const finish: FinishReason = candidate
    ? finishReason(candidate.finishReason ?? 'STOP', calls.length > 0)
    : response.promptFeedback?.blockReason
      ? 'content_filter'
      : 'stop';
  const completion: ChatCompletion = {
    id: `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: calls.length > 0 && !text ? null : text, ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: finish,
        logprobs: null,
      },
    ],
    ...(usage ? { usage: usageWire(usage) } : {}),
  };
  return { completion, usage };
}

/** Each SSE `data:` of `streamGenerateContent?alt=sse` is a whole GenerateContentResponse holding the next piece. */
export function geminiStreamTranslator(context: ResponseContext): StreamTranslator {
  let started = false;
  let finished = false;
  let toolCalls = 0;
  let metadata: GeminiUsageMetadata | undefined;

  const chunk = (delta: ChatCompletionChunk['choices'][number]['delta'], finish: FinishReason | null = null): ChatCompletionChunk => {
    const role = started ? {} : { role: 'assistant' as const };
    started = true;
    return {
      id: `chatcmpl-${context.requestId}`,
      object: 'chat.completion.chunk',
      created: context.created,
      model: context.model,
      choices: [{ index: 0, delta: { ...role, ...delta }, finish_reason: finish, logprobs: null }],
    };
  };

  return {
    push(event: SseEvent): ChatCompletionChunk[] {
      const data = event.data.trim();
      if (!data) return [];
      let body: unknown;
      try {
        body = JSON.parse(data);
      } catch {
        throw new UpstreamStreamError('Gemini sent a stream event that is not JSON.');
      }
      if (isGoogleError(body)) throw new UpstreamStreamError(body.error.message || `Gemini stream error (${body.error.status ?? 'unknown'}).`);

      const response = body as GeminiResponse;
      if (response.usageMetadata) metadata = response.usageMetadata;
      if (finished) return [];

      const out: ChatCompletionChunk[] = [];
      const { text, calls } = partsOf(response);
      const deltas: ChunkToolCallDelta[] = calls.map((call) => ({ index: toolCalls++, ...call }));
      if (text || deltas.length > 0 || !started) {
        const delta: ChatCompletionChunk['choices'][number]['delta'] = {};
        if (text) delta.content = text;
        // As OpenAI does: an answer opens with `content: ""`, or `content: null` when it starts with tool calls.
        else if (!started) delta.content = deltas.length > 0 ? null : '';
        if (deltas.length > 0) delta.tool_calls = deltas;
        out.push(chunk(delta));
      }

      const candidate = response.candidates?.[0];
      if (candidate?.finishReason) {
        finished = true;
        out.push(chunk({}, finishReason(candidate.finishReason, toolCalls > 0)));
      } else if (!candidate && response.promptFeedback?.blockReason) {
        finished = true;
        out.push(chunk({}, 'content_filter'));
      }
      return out;
    },

    finish(): ChatCompletionChunk[] {
      // Gemini has no terminator of its own: the finishReason frame is the end. Without it the answer was cut.
      if (!finished) throw new UpstreamStreamError('The Gemini stream ended before the answer finished.');
      return [];
    },

    usage: () => usageOf(metadata),
  };
}
