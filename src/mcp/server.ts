import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { version } from '../../package.json';
import { COST_HEADER } from '../billing/headers';
import { readBodyCapped } from '../http/body';
import { REQUEST_ID_HEADER } from '../middleware/request-id';
import { loadTools, toolInputSchema } from './tools';

/** Runs one request through the gateway's own route table (same auth, validation, billing and guards). */
export type RouteCaller = (method: string, path: string, body?: unknown) => Promise<Response>;

/** A tool's route answers JSON; anything larger than this (4 MiB) is refused rather than buffered into a tool result. */
export const MAX_RESULT_BYTES = 4 * 1024 * 1024;
const RESULT_LIMIT = '4 MiB';

/**
 * The SDK validates JSON Schemas only for elicitation answers, which this server never asks for
 * (the routes validate every tool's arguments with their own zod schemas). A validator that
 * refuses keeps a schema engine out of the bundle (about 8 KiB gzip), as the ajv stubs do.
 */
const noElicitation: jsonSchemaValidator = {
  getValidator: () => {
    throw new Error('this MCP server asks for no elicitation, so it validates no JSON Schema');
  },
};

/** A fresh MCP server (stateless: one per HTTP request) whose tools call the routes through `call`. */
export function createMcpServer(call: RouteCaller): Server {
  const server = new Server(
    { name: 'ai-gateway', version },
    { capabilities: { tools: {} }, jsonSchemaValidator: noElicitation },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await loadTools()).list.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: toolInputSchema(tool) })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = (await loadTools()).byName.get(request.params.name);
    if (!tool) return refusal('not_found', `No tool named ${request.params.name}.`, 'name');
    const planned = tool.request(request.params.arguments ?? {});
    if ('refuse' in planned) return refusal('invalid_request', planned.refuse, 'arguments');
    const response = await call(planned.method, planned.path, planned.body);
    const result = await toolResult(tool.name, response);
    if (tool.name === 'fund_account' && !result.isError) return withFundLink(result, call);
    return result;
  });
  return server;
}

/** A route's answer as a tool result: its JSON as structuredContent, its id and cost in _meta. */
async function toolResult(name: string, response: Response): Promise<CallToolResult> {
  const meta = {
    'x-service/request_id': response.headers.get(REQUEST_ID_HEADER),
    'x-service/cost_usd': response.headers.get(COST_HEADER),
  };
  // A declared length over the bound is refused unread; the bytes are counted as they arrive either way.
  const read = await readBodyCapped(response, MAX_RESULT_BYTES, RESULT_LIMIT);
  if (!read.ok) {
    const message = read.cause === 'too_large' ? `The ${name} result is larger than an MCP tool result may be (${MAX_RESULT_BYTES} bytes).` : `The ${name} result ${read.reason}.`;
    return { ...refusal('api_error', message), _meta: meta };
  }
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch {
    return { ...refusal('api_error', `The ${name} route did not answer JSON.`), _meta: meta };
  }
  const structured = (body && typeof body === 'object' && !Array.isArray(body) ? body : { data: body }) as Record<string, unknown>;
  const isError = !response.ok;
  return {
    content: [{ type: 'text', text: summary(name, response.status, structured, meta['x-service/cost_usd']) }],
    structuredContent: structured,
    _meta: meta,
    ...(isError ? { isError: true } : {}),
  };
}

/** A refusal made before any route ran, in the public error envelope. */
function refusal(code: 'not_found' | 'invalid_request' | 'api_error', message: string, param?: string): CallToolResult {
  const type = code === 'api_error' ? 'api_error' : 'invalid_request_error';
  const error = { code, message, type, ...(param ? { param } : {}) };
  return { content: [{ type: 'text', text: `Error: ${message}` }], structuredContent: { error }, isError: true };
}

/** A one-line summary for clients that read only text, followed by the JSON itself. */
function summary(name: string, status: number, body: Record<string, unknown>, cost: string | null): string {
  const error = body.error as { message?: string; code?: string } | undefined;
  const head = error ? `${name} refused (${status} ${error.code ?? ''}): ${error.message ?? ''}` : `${name} ok${cost ? `, cost $${cost}` : ''}.`;
  return `${head}\n${JSON.stringify(body)}`;
}

/** fund_account adds the account's card/USDC fund page (from GET /agent/account) to the deposit of POST /agent/fund. */
async function withFundLink(result: CallToolResult, call: RouteCaller): Promise<CallToolResult> {
  const response = await call('GET', '/agent/account');
  if (!response.ok) {
    await response.body?.cancel();
    return result;
  }
  const read = await readBodyCapped(response, MAX_RESULT_BYTES, RESULT_LIMIT);
  if (!read.ok) return result;
  const account = JSON.parse(new TextDecoder().decode(read.bytes)) as { fund_url?: unknown };
  const structured = { ...result.structuredContent, fund_url: typeof account.fund_url === 'string' ? account.fund_url : null };
  return { ...result, structuredContent: structured, content: [{ type: 'text', text: summary('fund_account', 200, structured, null) }] };
}
