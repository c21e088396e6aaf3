import type { z } from '@hono/zod-openapi';
import { GatewayError } from '../../../../errors';
import type { ChatMessage, ChatRequest, ContentPart, FunctionTool } from '../../../../providers/chat/types';
import {
  FunctionCallItem,
  FunctionCallOutputItem,
  FunctionToolBody,
  MessageContentPart,
  MessageItem,
  NamespaceToolBody,
  type InputItemBody,
  type ResponsesBody,
  type ToolBody,
} from './schema';
import { UNSERVED } from './unpriced';

/**
 * A Responses body as the internal Chat Completions request (D30), for planning and for the
 * upstreams that do not speak Responses. Members with no chat counterpart that change the
 * answer's shape are a 400 naming them; the rest are carried as they are, so the chat parameter
 * rules pass them on or announce them (`x-service-unsupported-params`), never silently.
 */

/** A function inside a `namespace` tool, as a translated model sees it: `<namespace>__<name>` (both halves are restored on its calls). */
export const NAMESPACE_SEPARATOR = '__';

/** Members the gateway itself applies (store, chaining, echo) or that become chat members below: never carried raw. */
const READ_HERE = new Set([
  'model',
  'input',
  'instructions',
  'stream',
  'store',
  'previous_response_id',
  'include',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'max_output_tokens',
  'temperature',
  'top_p',
  'metadata',
]);

/** Members no route serves (the route refuses them first, `unpriced.ts`): refused here too, never carried. */
const REFUSED = UNSERVED;

export interface Translated {
  request: ChatRequest;
  /** Hosted tools (`web_search`, ...) offered but not given to the model: no chat upstream runs them. */
  hosted: string[];
  /** What OpenAI would receive that the chat request does not hold (hosted tools, reasoning items, items only it reads): its hold counts their bytes. */
  uncarried: unknown[];
}

export interface TranslateOptions {
  /**
   * The body goes to OpenAI intact: nothing is refused here (OpenAI judges its own members), and
   * what the chat request cannot hold is set aside in `uncarried`, for the hold to count.
   */
  native?: boolean;
}

const invalid = (param: string, message: string) => new GatewayError('invalid_request', message, { param });

function parsed<S extends z.ZodType>(schema: S, value: unknown, param: string, what: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue?.path.length ? `${param}.${issue.path.join('.')}` : param;
    throw invalid(at, `${at}: not a valid ${what} (${issue?.message ?? 'invalid'}).`);
  }
  return result.data;
}

export function translate(body: ResponsesBody, options: TranslateOptions = {}): Translated {
  const uncarried: unknown[] = [];
  // Natively, what the chat request cannot hold is counted, not refused.
  const attempt = <T>(value: unknown, fn: () => T): T | undefined => {
    if (!options.native) return fn();
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      uncarried.push(value);
      return undefined;
    }
  };
  const refuse = (value: unknown, error: GatewayError) =>
    attempt(value, () => {
      throw error;
    });
  for (const [member, why] of Object.entries(REFUSED)) {
    const value = body[member];
    if (value !== undefined && value !== null && value !== false) refuse(value, invalid(member, `${member} is not supported on this model: ${why}`));
  }
  const { tools, hosted } = translateTools(body.tools ?? [], attempt, uncarried);
  const messages: ChatMessage[] = [];
  if (body.instructions) messages.push({ role: 'system', content: body.instructions });
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  input.forEach((item, index) => {
    if (item.type === 'reasoning') uncarried.push(item);
    else attempt(item, () => addItem(messages, item, `input[${index}]`));
  });
  if (!messages.some((message) => message.role !== 'system')) refuse(null, invalid('input', 'input must hold at least one message.'));
  if (body.include) uncarried.push(body.include);

  const request: ChatRequest = { model: body.model, messages };
  for (const [member, value] of Object.entries(body)) {
    if (!READ_HERE.has(member) && !(member in REFUSED) && value !== undefined) request[member] = value;
  }
  if (body.stream !== undefined) request.stream = body.stream;
  if (body.max_output_tokens != null) request.max_tokens = body.max_output_tokens;
  if (body.temperature != null) request.temperature = body.temperature;
  if (body.top_p != null) request.top_p = body.top_p;
  if (body.parallel_tool_calls != null && tools.length) request.parallel_tool_calls = body.parallel_tool_calls;
  if (tools.length) request.tools = tools;
  const choice = attempt(body.tool_choice, () => toolChoice(body.tool_choice));
  if (choice !== undefined) request.tool_choice = choice;
  const format = attempt(body.text, () => responseFormat(body.text?.format));
  if (format) request.response_format = format;
  if (body.text?.verbosity) request.verbosity = body.text.verbosity;
  if (body.reasoning?.effort) request.reasoning_effort = body.reasoning.effort;
  return { request, hosted, uncarried };
}

type Attempt = <T>(value: unknown, fn: () => T) => T | undefined;

function translateTools(tools: ToolBody[], attempt: Attempt, uncarried: unknown[]): { tools: FunctionTool[]; hosted: string[] } {
  const out: FunctionTool[] = [];
  const hosted: string[] = [];
  const fn = (tool: unknown, param: string, prefix = '') => attempt(tool, () => {
    const { name, description, parameters, strict } = parsed(FunctionToolBody, tool, param, 'function tool');
    out.push({
      type: 'function',
      function: { name: prefix + name, ...(description != null && { description }), ...(parameters != null && { parameters }), ...(strict != null && { strict }) },
    });
  });
  const set = (tool: ToolBody) => {
    hosted.push(tool.type);
    uncarried.push(tool);
  };
  tools.forEach((tool, index) => {
    const param = `tools[${index}]`;
    if (tool.type === 'function') fn(tool, param);
    else if (tool.type === 'namespace') {
      const space = attempt(tool, () => parsed(NamespaceToolBody, tool, param, 'namespace tool'));
      space?.tools.forEach((inner, j) => {
        if (inner.type === 'function') fn(inner, `${param}.tools[${j}]`, space.name + NAMESPACE_SEPARATOR);
        else set(inner);
      });
    } else set(tool);
  });
  return { tools: out, hosted };
}

function toolChoice(choice: unknown): unknown {
  if (choice === undefined || choice === null) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  const value = choice as { type?: unknown; name?: unknown; namespace?: unknown };
  if (typeof value === 'object' && value.type === 'function' && typeof value.name === 'string') {
    const prefix = typeof value.namespace === 'string' ? value.namespace + NAMESPACE_SEPARATOR : '';
    return { type: 'function', function: { name: prefix + value.name } };
  }
  throw invalid('tool_choice', 'tool_choice may be "auto", "none", "required" or a function ({"type": "function", "name": ...}) on this model.');
}

function responseFormat(format: { type: string; [k: string]: unknown } | undefined): unknown {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return { type: 'json_object' };
  if (format.type === 'json_schema') {
    const { name, schema, strict, description } = format;
    if (typeof name !== 'string' || typeof schema !== 'object' || schema === null) throw invalid('text.format', 'text.format json_schema needs a name and a schema.');
    return { type: 'json_schema', json_schema: { name, schema, ...(strict != null && { strict }), ...(description != null && { description }) } };
  }
  throw invalid('text.format.type', `text.format type ${JSON.stringify(format.type)} is not supported: send text, json_object or json_schema.`);
}

function addItem(messages: ChatMessage[], item: InputItemBody, param: string): void {
  const type = item.type ?? 'message';
  switch (type) {
    case 'message': {
      const message = parsed(MessageItem, item, param, 'message');
      const parts = typeof message.content === 'string' ? message.content : message.content.map((part, i) => contentPart(part, `${param}.content[${i}]`));
      if (message.role === 'assistant') {
        const text = typeof parts === 'string' ? parts : parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
        messages.push({ role: 'assistant', content: text });
      } else messages.push({ role: message.role, content: parts });
      return;
    }
    case 'function_call': {
      const call = parsed(FunctionCallItem, item, param, 'function_call item');
      const toolCall = { id: call.call_id, type: 'function' as const, function: { name: (call.namespace ? call.namespace + NAMESPACE_SEPARATOR : '') + call.name, arguments: call.arguments } };
      // Calls that follow an assistant turn (or each other) belong to that one turn, as chat has them.
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), toolCall];
      else messages.push({ role: 'assistant', content: null, tool_calls: [toolCall] });
      return;
    }
    case 'function_call_output': {
      const output = parsed(FunctionCallOutputItem, item, param, 'function_call_output item');
      const content = typeof output.output === 'string' ? output.output : output.output.map((part) => part.text ?? '').join('');
      messages.push({ role: 'tool', tool_call_id: output.call_id, content });
      return;
    }
    case 'reasoning':
      // The model's own earlier reasoning: only OpenAI can read it (encrypted), and no chat upstream takes it back.
      return;
    default:
      throw invalid(`${param}.type`, `Input items of type ${JSON.stringify(type)} are served only by OpenAI models; this model takes messages, function_call, function_call_output and reasoning items.`);
  }
}

function contentPart(part: z.output<typeof MessageContentPart>, param: string): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image': {
      if (!part.image_url) throw invalid(`${param}.image_url`, 'input_image needs an image_url (an https URL or a data URI); file ids are not served.');
      const detail = part.detail === 'low' || part.detail === 'high' || part.detail === 'auto' ? part.detail : undefined;
      return { type: 'image_url', image_url: { url: part.image_url, ...(detail && { detail }) } };
    }
    case 'input_file': {
      if (!part.file_data?.startsWith('data:application/pdf;base64,')) {
        throw invalid(`${param}.file_data`, 'input_file needs file_data as a base64 application/pdf data URI on this model; file ids and URLs are not served.');
      }
      return { type: 'file', file: { filename: part.filename || 'document.pdf', file_data: part.file_data } };
    }
  }
}
