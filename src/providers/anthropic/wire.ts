/**
 * The slice of Anthropic's Messages API wire format the gateway reads and writes
 * (https://docs.anthropic.com/en/api/messages), plus the mappings shared by the
 * non-streamed and streamed translations.
 */
import type { FinishReason, Usage } from '../chat/types';

export const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic requires `max_tokens`; used only when the caller set none. */
export const DEFAULT_MAX_TOKENS = 4096;

export type AnthropicImageSource =
  | { type: 'url'; url: string }
  | { type: 'base64'; media_type: string; data: string };

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}
export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
}
export interface AnthropicDocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
}
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | AnthropicTextBlock[];
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type AnthropicToolChoice =
  | { type: 'auto' | 'any'; disable_parallel_tool_use?: boolean }
  | { type: 'tool'; name: string; disable_parallel_tool_use?: boolean }
  | { type: 'none' };

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  system?: string;
  temperature?: number;
  top_p?: number;
  stop_sequences?: string[];
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  stream?: true;
}

/**
 * `usage` as Anthropic reports it; the cache members are absent on older answers.
 * `cache_creation` splits `cache_creation_input_tokens` by lifetime
 * (https://docs.claude.com/en/docs/build-with-claude/prompt-caching#1-hour-cache-duration).
 */
export interface AnthropicUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_creation?: { ephemeral_5m_input_tokens?: number; ephemeral_1h_input_tokens?: number };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The usage members that are present and numeric; an absent member stays absent so later events can fill it in. */
export function readUsage(value: unknown): AnthropicUsage | null {
  if (!isRecord(value)) return null;
  const usage: AnthropicUsage = {};
  const input = count(value.input_tokens);
  const output = count(value.output_tokens);
  const cacheRead = count(value.cache_read_input_tokens);
  const cacheWrite = count(value.cache_creation_input_tokens);
  if (input !== undefined) usage.input_tokens = input;
  if (output !== undefined) usage.output_tokens = output;
  if (cacheRead !== undefined) usage.cache_read_input_tokens = cacheRead;
  if (cacheWrite !== undefined) usage.cache_creation_input_tokens = cacheWrite;
  if (isRecord(value.cache_creation)) {
    const fiveMinutes = count(value.cache_creation.ephemeral_5m_input_tokens);
    const oneHour = count(value.cache_creation.ephemeral_1h_input_tokens);
    usage.cache_creation = {
      ...(fiveMinutes !== undefined && { ephemeral_5m_input_tokens: fiveMinutes }),
      ...(oneHour !== undefined && { ephemeral_1h_input_tokens: oneHour }),
    };
  }
  return usage;
}

/**
 * Billing view: Anthropic's `input_tokens` already excludes cache reads and writes. Writes the
 * split does not place (an answer without `cache_creation`) are 5-minute writes, the default
 * lifetime; `output_tokens` includes thinking, which Anthropic does not count apart.
 */
export function toUsage(usage: AnthropicUsage): Usage {
  const oneHour = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  const written = Math.max(usage.cache_creation_input_tokens ?? 0, (usage.cache_creation?.ephemeral_5m_input_tokens ?? 0) + oneHour);
  return {
    inputTokens: usage.input_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    cacheReadTokens: usage.cache_read_input_tokens ?? 0,
    cacheWriteTokens: written - oneHour,
    cacheWrite1hTokens: oneHour,
  };
}

export { usageWire as toWireUsage } from '../chat/usage';

/** Anthropic's `stop_reason` as an OpenAI `finish_reason`; unknown future reasons read as a normal stop. */
export function toFinishReason(stopReason: string): FinishReason {
  switch (stopReason) {
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool_calls';
    case 'refusal':
      return 'content_filter';
    default:
      // end_turn, stop_sequence, pause_turn
      return 'stop';
  }
}
