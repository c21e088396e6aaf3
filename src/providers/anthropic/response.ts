/** Anthropic message JSON and error bodies -> chat completions and error text. */
import type { ChatCompletion, ResponseContext, ToolCall, Usage } from '../chat/types';
import { isRecord, readUsage, stringOf, toFinishReason, toUsage, toWireUsage } from './wire';

/**
 * A non-streamed Anthropic message as a chat completion. Text blocks make the content and
 * tool_use blocks the tool calls; thinking and server-tool blocks are not part of the answer.
 */
export function parseAnthropicResponse(body: unknown, context: ResponseContext): { completion: ChatCompletion; usage: Usage | null } {
  const message = isRecord(body) ? body : {};
  const blocks = Array.isArray(message.content) ? message.content.filter(isRecord) : [];

  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push(stringOf(block.text) ?? '');
    if (block.type === 'tool_use') {
      toolCalls.push({
        id: stringOf(block.id) ?? '',
        type: 'function',
        function: { name: stringOf(block.name) ?? '', arguments: JSON.stringify(block.input ?? {}) },
      });
    }
  }

  const stopReason = stringOf(message.stop_reason);
  const anthropicUsage = readUsage(message.usage);
  const usage = anthropicUsage ? toUsage(anthropicUsage) : null;
  const completion: ChatCompletion = {
    id: stringOf(message.id) ?? `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: texts.length > 0 ? texts.join('') : null,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          refusal: null,
        },
        finish_reason: stopReason ? toFinishReason(stopReason) : null,
        logprobs: null,
      },
    ],
    ...(usage ? { usage: toWireUsage(usage) } : {}),
  };
  return { completion, usage };
}

/** The message of an Anthropic error body (`{"type":"error","error":{"type","message"}}`), else a generic line. */
export function anthropicErrorMessage(status: number, body: unknown): string {
  const parsed = typeof body === 'string' ? parseJson(body) : body;
  const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : undefined;
  const message = error ? stringOf(error.message) : undefined;
  return message || `Anthropic answered with HTTP ${status}.`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
