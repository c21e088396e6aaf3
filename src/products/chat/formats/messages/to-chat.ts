/**
 * A Messages body as the internal (Chat Completions-shaped) request: for planning every route
 * (model, hold bound, parameter rules) and as the request a translated upstream gets. Anthropic's
 * own members with no chat counterpart keep their names (`thinking`, `context_management`, ...),
 * so the parameter rules announce them on a translated route and the hold counts them.
 */
import { GatewayError } from '../../../../errors';
import type { ChatMessage, ChatRequest, ContentPart, FunctionTool, ToolCall } from '../../../../providers/chat/types';
import type { MessagesBlock, MessagesBody, MessagesMessage } from './schema';

/** Members read into the chat request's own ones; every other member is carried under its own name. */
const MAPPED = new Set(['model', 'messages', 'system', 'max_tokens', 'stream', 'temperature', 'top_p', 'stop_sequences', 'tools', 'tool_choice', 'metadata', 'service_tier']);

export function messagesToChat(body: MessagesBody): ChatRequest {
  const messages: ChatMessage[] = [];
  const system = systemText(body.system);
  if (system) messages.push({ role: 'system', content: system });
  body.messages.forEach((message, i) => messages.push(...turn(message, i)));
  // A body whose only turn carries nothing the chat shape holds still names a turn.
  if (messages.length === 0) messages.push({ role: 'user', content: '' });

  const request: ChatRequest = { model: body.model, messages, max_tokens: body.max_tokens };
  for (const [name, value] of Object.entries(body)) if (!MAPPED.has(name) && value !== undefined) request[name] = value;
  if (body.stream !== undefined) request.stream = body.stream;
  if (body.stream === true) request.stream_options = { include_usage: true };
  if (body.temperature !== undefined) request.temperature = body.temperature;
  if (body.top_p !== undefined) request.top_p = body.top_p;
  if (body.stop_sequences?.length) request.stop = body.stop_sequences;
  const tools = (body.tools ?? []).map(toTool);
  if (tools.length > 0) request.tools = tools;
  if (body.tool_choice) {
    const { type, name, disable_parallel_tool_use: serial } = body.tool_choice;
    request.tool_choice = type === 'any' ? 'required' : type === 'tool' ? { type: 'function', function: { name: name ?? '' } } : type;
    if (serial === true && type !== 'none') request.parallel_tool_calls = false;
  }
  // Anthropic's "standard_only" is the default tier; "auto" may run on priority capacity.
  if (body.service_tier !== undefined) request.service_tier = body.service_tier === 'standard_only' ? 'default' : body.service_tier;
  // Thinking switched off asks for nothing.
  if (body.thinking?.type === 'disabled') delete request.thinking;
  // Structured output is chat's `response_format`; the rest of output_config (effort) keeps its name.
  const format = outputFormat(body.output_config);
  if (format) {
    request.response_format = { type: 'json_schema', json_schema: { name: 'output', schema: format, strict: true } };
    const { format: _, ...rest } = body.output_config as Record<string, unknown>;
    if (Object.keys(rest).length > 0) request.output_config = rest;
    else delete request.output_config;
  }
  return request;
}

function outputFormat(config: unknown): Record<string, unknown> | undefined {
  if (typeof config !== 'object' || config === null) return undefined;
  const format = (config as { format?: { type?: unknown; schema?: unknown } | null }).format;
  return format?.type === 'json_schema' && typeof format.schema === 'object' && format.schema !== null ? (format.schema as Record<string, unknown>) : undefined;
}

function systemText(system: MessagesBody['system']): string {
  if (system === undefined) return '';
  if (typeof system === 'string') return system;
  return system.map((block) => block.text).join('\n\n');
}

/** One Anthropic turn as chat messages: a user turn's tool results become `tool` messages, first, as chat wants them right after the call. */
function turn(message: MessagesMessage, i: number): ChatMessage[] {
  const blocks: MessagesBlock[] = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
  const param = (j: number) => `messages.${i}.content.${j}`;
  if (message.role === 'system') {
    const text = blocks.flatMap((block) => (block.type === 'text' ? [block.text ?? ''] : [])).join('\n\n');
    return text ? [{ role: 'system', content: text }] : [];
  }
  if (message.role === 'assistant') {
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    blocks.forEach((block, j) => {
      if (block.type === 'text') texts.push(block.text ?? '');
      if (block.type === 'tool_use') calls.push(toolCall(block, param(j)));
      // thinking, redacted_thinking: the answer's reasoning, which only Anthropic reads back.
    });
    const content = texts.join('');
    if (!content && calls.length === 0) return [];
    return [{ role: 'assistant', content: content || null, ...(calls.length > 0 && { tool_calls: calls }) }];
  }
  const results: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  blocks.forEach((block, j) => {
    if (block.type === 'tool_result') results.push(toolResult(block, param(j)));
    else parts.push(...contentParts(block, param(j)));
  });
  const user: ChatMessage[] = parts.length > 0 ? [{ role: 'user', content: parts.length === 1 && parts[0]?.type === 'text' ? parts[0].text : parts }] : [];
  return [...results, ...user];
}

function toolCall(block: MessagesBlock, param: string): ToolCall {
  const id = typeof block.id === 'string' ? block.id : '';
  const name = typeof block.name === 'string' ? block.name : '';
  if (!id || !name) throw new GatewayError('invalid_request', `${param}: a tool_use block needs an id and a name.`, { param });
  return { id, type: 'function', function: { name, arguments: JSON.stringify(block.input ?? {}) } };
}

function toolResult(block: MessagesBlock, param: string): ChatMessage {
  const id = typeof block.tool_use_id === 'string' ? block.tool_use_id : '';
  if (!id) throw new GatewayError('invalid_request', `${param}.tool_use_id: required.`, { param: `${param}.tool_use_id` });
  const content = block.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    // Chat's tool messages hold text; other parts of a result are counted by the hold (uncarriedBytes) and refused translated (translationIssues).
    text = content.flatMap((part: unknown) => (isBlock(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');
  } else text = '';
  // Chat has no error flag on a tool message: the model reads it in the text, as Anthropic shows it.
  if (block.is_error === true) text = `Error: ${text}`;
  return { role: 'tool', tool_call_id: id, content: text };
}

/** A user block as chat content parts; blocks with no chat counterpart yield none (see uncarriedBytes, translationIssues). */
function contentParts(block: MessagesBlock, param: string): ContentPart[] {
  const source = isBlock(block.source) ? block.source : undefined;
  switch (block.type) {
    case 'text':
      return [{ type: 'text', text: block.text ?? '' }];
    case 'image': {
      if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string') {
        return [{ type: 'image_url', image_url: { url: `data:${source.media_type};base64,${source.data}` } }];
      }
      if (source?.type === 'url' && typeof source.url === 'string') return [{ type: 'image_url', image_url: { url: source.url } }];
      return [];
    }
    case 'document': {
      if (source?.type === 'base64' && source.media_type === 'application/pdf' && typeof source.data === 'string') {
        const filename = typeof block.title === 'string' && block.title ? block.title.slice(0, 256) : 'document.pdf';
        return [{ type: 'file', file: { filename, file_data: `data:application/pdf;base64,${source.data}` } }];
      }
      if (source?.type === 'text' && typeof source.data === 'string') return [{ type: 'text', text: source.data }];
      if (source?.type === 'content' && Array.isArray(source.content)) {
        return source.content.flatMap((part: unknown) => (isBlock(part) ? contentParts(part, `${param}.source.content`) : []));
      }
      return [];
    }
    default:
      return [];
  }
}

function toTool(tool: NonNullable<MessagesBody['tools']>[number]): FunctionTool {
  return {
    type: 'function',
    function: { name: tool.name, ...(tool.description && { description: tool.description }), parameters: tool.input_schema ?? { type: 'object', properties: {} } },
  };
}

export function isBlock(value: unknown): value is MessagesBlock {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as { type?: unknown }).type === 'string';
}
