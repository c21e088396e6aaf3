import { GatewayError } from '../../errors';
import type { ChatMessage, ChatRequest, ContentPart, ImageFetcher, ToolCall } from '../chat/types';
import { geminiParameters } from './schema';
import { FOREIGN_CALL_SIGNATURE, signatureOf } from './tool-ids';
import type { GeminiContent, GeminiPart, GeminiRequestBody } from './wire';

/** The `generateContent` body for a chat request. Throws `GatewayError` (400) for input Gemini cannot take. */
export async function geminiBody(request: ChatRequest, fetchImage: ImageFetcher): Promise<GeminiRequestBody> {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();

  for (const [index, message] of request.messages.entries()) {
    const param = `messages.${index}`;
    switch (message.role) {
      case 'system':
      case 'developer': {
        const text = textOf(message, param);
        if (text) system.push(text);
        break;
      }
      case 'user':
        append(contents, 'user', await userParts(message, param, fetchImage));
        break;
      case 'assistant':
        append(contents, 'model', modelParts(message, param, callNames));
        break;
      case 'tool':
        append(contents, 'user', [functionResponse(message, param, callNames)]);
        break;
    }
  }

  const body: GeminiRequestBody = { contents: contents.map(signForeignCalls) };
  if (system.length > 0) body.systemInstruction = { parts: [{ text: system.join('\n\n') }] };
  const config = generationConfig(request);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map(({ function: fn }) => {
          const parameters = geminiParameters(fn.parameters);
          return { name: fn.name, ...(fn.description ? { description: fn.description } : {}), ...(parameters ? { parameters } : {}) };
        }),
      },
    ];
    const toolConfig = functionCallingConfig(request.tool_choice);
    if (toolConfig) body.toolConfig = { functionCallingConfig: toolConfig };
  }
  return body;
}

/** Gemini wants user and model turns to alternate: a turn of the same role as the last joins it. */
function append(contents: GeminiContent[], role: GeminiContent['role'], parts: GeminiPart[]): void {
  if (parts.length === 0) return;
  const last = contents.at(-1);
  if (last?.role === role) last.parts.push(...parts);
  else contents.push({ role, parts });
}

function generationConfig(request: ChatRequest): NonNullable<GeminiRequestBody['generationConfig']> {
  const config: NonNullable<GeminiRequestBody['generationConfig']> = {};
  if (request.temperature !== undefined) config.temperature = Math.min(2, Math.max(0, request.temperature));
  if (request.top_p !== undefined) config.topP = request.top_p;
  const maxTokens = request.max_tokens ?? request.max_completion_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (request.stop !== undefined) {
    const stop = typeof request.stop === 'string' ? [request.stop] : request.stop;
    if (stop.length > 0) config.stopSequences = stop;
  }
  return config;
}

function functionCallingConfig(choice: unknown): NonNullable<GeminiRequestBody['toolConfig']>['functionCallingConfig'] | undefined {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto') return { mode: 'AUTO' };
  if (choice === 'none') return { mode: 'NONE' };
  if (choice === 'required') return { mode: 'ANY' };
  if (typeof choice === 'object' && 'function' in choice) {
    const name = (choice as { function?: { name?: unknown } }).function?.name;
    if (typeof name === 'string') return { mode: 'ANY', allowedFunctionNames: [name] };
  }
  throw new GatewayError('invalid_request', 'tool_choice must be "none", "auto", "required" or {"type": "function", "function": {"name": ...}}.', {
    param: 'tool_choice',
  });
}

function textOf(message: ChatMessage, param: string): string {
  if (message.content == null) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content
    .map((part, i) => {
      if (part.type !== 'text') throw new GatewayError('invalid_request', `A ${message.role} message takes only text parts.`, { param: `${param}.content.${i}` });
      return part.text;
    })
    .join('');
}

async function userParts(message: ChatMessage, param: string, fetchImage: ImageFetcher): Promise<GeminiPart[]> {
  if (message.content == null) return [];
  if (typeof message.content === 'string') return message.content ? [{ text: message.content }] : [];
  return Promise.all(message.content.map((part, i) => userPart(part, `${param}.content.${i}`, fetchImage)));
}

async function userPart(part: ContentPart, param: string, fetchImage: ImageFetcher): Promise<GeminiPart> {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'image_url': {
      const url = part.image_url.url;
      // Gemini reads no URLs but its own file store, so remote images travel inline.
      if (url.startsWith('data:')) return { inlineData: dataUri(url, `${param}.image_url.url`) };
      const image = await fetchImage(url);
      return { inlineData: { mimeType: image.mimeType, data: image.base64 } };
    }
    case 'file': {
      const inline = dataUri(part.file.file_data, `${param}.file.file_data`);
      return { inlineData: { mimeType: inline.mimeType === 'application/octet-stream' ? 'application/pdf' : inline.mimeType, data: inline.data } };
    }
    default:
      throw new GatewayError('invalid_request', 'Unsupported content part type.', { param: `${param}.type` });
  }
}

function dataUri(uri: string, param: string): { mimeType: string; data: string } {
  const match = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s.exec(uri);
  if (!match || match[3] === undefined) throw new GatewayError('invalid_request', 'Expected a base64 data URI (data:<type>;base64,...).', { param });
  return { mimeType: match[1] || 'application/octet-stream', data: match[3] };
}

function modelParts(message: ChatMessage, param: string, callNames: Map<string, string>): GeminiPart[] {
  const parts: GeminiPart[] = [];
  const text = textOf(message, param);
  if (text) parts.push({ text });
  for (const [i, call] of (message.tool_calls ?? []).entries()) {
    callNames.set(call.id, call.function.name);
    parts.push(functionCall(call, `${param}.tool_calls.${i}`));
  }
  return parts;
}

function functionCall(call: ToolCall, param: string): GeminiPart {
  let args: unknown = {};
  if (call.function.arguments.trim()) {
    try {
      args = JSON.parse(call.function.arguments);
    } catch {
      throw new GatewayError('invalid_request', 'Tool call arguments must be a JSON object.', { param: `${param}.function.arguments` });
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new GatewayError('invalid_request', 'Tool call arguments must be a JSON object.', { param: `${param}.function.arguments` });
  }
  const signature = signatureOf(call.id);
  return { functionCall: { name: call.function.name, args: args as Record<string, unknown> }, ...(signature ? { thoughtSignature: signature } : {}) };
}

function functionResponse(message: ChatMessage, param: string, callNames: Map<string, string>): GeminiPart {
  const name = (message.tool_call_id && callNames.get(message.tool_call_id)) || message.name;
  if (!name) {
    throw new GatewayError('invalid_request', 'tool_call_id does not match a tool call of an earlier assistant message.', { param: `${param}.tool_call_id` });
  }
  const text = textOf(message, param);
  let response: Record<string, unknown> = { content: text };
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) response = parsed as Record<string, unknown>;
  } catch {
    // plain text: stays wrapped
  }
  return { functionResponse: { name, response } };
}

/**
 * A model turn whose calls carry no signature did not come from Gemini (another model's history, or
 * calls the client made up). Gemini 3 refuses those unless the first call holds Google's placeholder.
 */
function signForeignCalls(content: GeminiContent): GeminiContent {
  if (content.role !== 'model' || content.parts.some((part) => part.thoughtSignature)) return content;
  const first = content.parts.findIndex((part) => part.functionCall);
  if (first < 0) return content;
  const parts = content.parts.map((part, i) => (i === first ? { ...part, thoughtSignature: FOREIGN_CALL_SIGNATURE } : part));
  return { ...content, parts };
}
