/**
 * Chat request -> Anthropic Messages request. Anthropic keeps the system prompt outside the
 * turns, wants user and assistant turns to alternate, and carries tool calls and tool results
 * as content blocks inside those turns.
 */
import { GatewayError } from '../../errors';
import type { ChatMessage, ChatRequest, ChatTarget, ContentPart, FunctionTool, UpstreamRequest } from '../chat/types';
import {
  ANTHROPIC_VERSION,
  DEFAULT_MAX_TOKENS,
  isRecord,
  stringOf,
  type AnthropicContentBlock,
  type AnthropicMessage,
  type AnthropicRequestBody,
  type AnthropicTextBlock,
  type AnthropicTool,
  type AnthropicToolChoice,
  type AnthropicToolResultBlock,
} from './wire';

export async function buildAnthropicRequest(request: ChatRequest, target: ChatTarget): Promise<UpstreamRequest> {
  const body: AnthropicRequestBody = {
    model: target.upstreamModel,
    max_tokens: request.max_tokens ?? request.max_completion_tokens ?? DEFAULT_MAX_TOKENS,
    messages: toMessages(request.messages),
  };
  const system = systemPrompt(request.messages);
  if (system) body.system = system;
  // OpenAI allows temperature up to 2, Anthropic up to 1.
  if (request.temperature !== undefined) body.temperature = Math.min(request.temperature, 1);
  if (request.top_p !== undefined) body.top_p = request.top_p;
  const stops = request.stop === undefined ? [] : typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (stops.length > 0) body.stop_sequences = stops;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map(toTool);
    const choice = toToolChoice(request.tool_choice, request.parallel_tool_calls === false);
    if (choice) body.tool_choice = choice;
  }
  if (request.stream === true) body.stream = true;

  return {
    url: `${target.baseUrl}/messages`,
    headers: { 'x-api-key': target.apiKey, 'anthropic-version': ANTHROPIC_VERSION, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/** System and developer messages, wherever they sit, joined into the top-level `system`. */
function systemPrompt(messages: ChatMessage[]): string {
  return messages
    .filter((m) => m.role === 'system' || m.role === 'developer')
    .map((m) => textOf(m.content))
    .filter((text) => text.length > 0)
    .join('\n\n');
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** The turns, with consecutive same-role turns merged (tool results are user turns to Anthropic). */
function toMessages(messages: ChatMessage[]): AnthropicMessage[] {
  const turns: { role: 'user' | 'assistant'; blocks: AnthropicContentBlock[] }[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system' || message.role === 'developer') return;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const blocks = blocksOf(message, i);
    if (blocks.length === 0) return;
    const last = turns.at(-1);
    if (last && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  });
  return turns.map(({ role, blocks }) => {
    const [only] = blocks;
    return { role, content: blocks.length === 1 && only?.type === 'text' ? only.text : blocks };
  });
}

function blocksOf(message: ChatMessage, i: number): AnthropicContentBlock[] {
  if (message.role === 'tool') {
    const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '' };
    const content = toolResultContent(message.content);
    if (content !== undefined) block.content = content;
    return [block];
  }
  const blocks = contentBlocks(message.content, `messages.${i}.content`);
  if (message.role === 'assistant') {
    (message.tool_calls ?? []).forEach((call, j) => {
      const input = toolInput(call.function.arguments, `messages.${i}.tool_calls.${j}.function.arguments`);
      blocks.push({ type: 'tool_use', id: call.id, name: call.function.name, input });
    });
  }
  return blocks;
}

function toolResultContent(content: ChatMessage['content']): string | AnthropicTextBlock[] | undefined {
  if (typeof content === 'string') return hasText(content) ? content : undefined;
  const texts = textBlocks(content ?? []);
  return texts.length > 0 ? texts : undefined;
}

function textBlocks(parts: ContentPart[]): AnthropicTextBlock[] {
  return parts.flatMap((part) => (part.type === 'text' && hasText(part.text) ? [{ type: 'text' as const, text: part.text }] : []));
}

/**
 * Anthropic answers 400 to a text block that is empty or only whitespace ("text content blocks
 * must contain non-whitespace text"), which OpenAI-format clients send beside tool calls.
 */
function hasText(text: string): boolean {
  return text.trim().length > 0;
}

/** Text blocks without text are left out (see `hasText`). */
function contentBlocks(content: ChatMessage['content'], param: string): AnthropicContentBlock[] {
  if (typeof content === 'string') return hasText(content) ? [{ type: 'text', text: content }] : [];
  return (content ?? []).flatMap((part, j): AnthropicContentBlock[] => {
    switch (part.type) {
      case 'text':
        return hasText(part.text) ? [{ type: 'text', text: part.text }] : [];
      case 'image_url':
        return [imageBlock(part.image_url.url, `${param}.${j}.image_url.url`)];
      case 'file':
        return [documentBlock(part.file.file_data, `${param}.${j}.file.file_data`)];
      default:
        return [];
    }
  });
}

function imageBlock(url: string, param: string): AnthropicContentBlock {
  if (!url.startsWith('data:')) return { type: 'image', source: { type: 'url', url } };
  const inline = parseDataUri(url);
  if (!inline) throw new GatewayError('invalid_request', `${param}: expected a base64 data URI.`, { param });
  return { type: 'image', source: { type: 'base64', media_type: inline.mediaType, data: inline.data } };
}

function documentBlock(fileData: string | undefined, param: string): AnthropicContentBlock {
  const inline = fileData ? parseDataUri(fileData) : null;
  if (!inline) throw new GatewayError('invalid_request', `${param}: expected a data:application/pdf;base64 URI.`, { param });
  return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: inline.data } };
}

function parseDataUri(uri: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.+)$/s.exec(uri);
  return match?.[1] && match[2] ? { mediaType: match[1], data: match[2] } : null;
}

/** OpenAI carries tool-call arguments as a JSON string; Anthropic wants the object. */
function toolInput(args: string, param: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    throw new GatewayError('invalid_request', `${param}: not valid JSON.`, { param });
  }
  if (!isRecord(input)) throw new GatewayError('invalid_request', `${param}: must be a JSON object.`, { param });
  return input;
}

function toTool(tool: FunctionTool): AnthropicTool {
  const { name, description, parameters } = tool.function;
  return {
    name,
    ...(description ? { description } : {}),
    input_schema: parameters ?? { type: 'object', properties: {} },
  };
}

function toToolChoice(choice: unknown, serial: boolean): AnthropicToolChoice | undefined {
  const extra = serial ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined || choice === null) return serial ? { type: 'auto', ...extra } : undefined;
  if (choice === 'auto') return { type: 'auto', ...extra };
  if (choice === 'required') return { type: 'any', ...extra };
  if (choice === 'none') return { type: 'none' };
  const name = isRecord(choice) && choice.type === 'function' && isRecord(choice.function) ? stringOf(choice.function.name) : undefined;
  if (name) return { type: 'tool', name, ...extra };
  throw new GatewayError('invalid_request', "tool_choice: expected 'none', 'auto', 'required' or {type: 'function', function: {name}}.", {
    param: 'tool_choice',
  });
}
