import { describe, expect, it } from 'vitest';
import { adminCredit, bearer, call, register } from './helpers';

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

function rpc(key: string | null, method: string, params: unknown = {}) {
  const headers: Record<string, string> = { ...MCP_HEADERS, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  return call('/mcp', { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
}

interface ToolResult {
  isError?: boolean;
  structuredContent: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  content: { type: string; text: string }[];
}

async function callTool(key: string, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
  const res = await rpc(key, 'tools/call', { name, arguments: args });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: ToolResult };
  return body.result;
}

describe('MCP at /mcp', () => {
  it('refuses a call without a key with 401 naming the protected-resource metadata', async () => {
    const res = await rpc(null, 'tools/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer resource_metadata="https://gateway.test/.well-known/oauth-protected-resource"');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('missing_api_key');
  });

  it('refuses a key the account does not know with 401 and the challenge', async () => {
    const { api_key: apiKey } = await register();
    const forged = apiKey.slice(0, -4) + (apiKey.endsWith('aaaa') ? 'bbbb' : 'aaaa');
    const res = await rpc(forged, 'tools/list');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  it('answers GET and DELETE with 405: the server is stateless', async () => {
    const { api_key: apiKey } = await register();
    for (const method of ['GET', 'DELETE']) {
      const res = await call('/mcp', bearer(apiKey, { method, headers: { accept: 'text/event-stream' } }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      await res.body?.cancel();
    }
  });

  it('lists every contract tool with an object input schema taken from its route', async () => {
    const { api_key: apiKey } = await register();
    const res = await rpc(apiKey, 'tools/list');
    expect(res.status).toBe(200);
    const { result } = (await res.json()) as { result: { tools: { name: string; inputSchema: { type: string; properties?: Record<string, unknown> } }[] } };
    expect(result.tools.map((t) => t.name).sort()).toEqual(
      ['chat_completion', 'create_embedding', 'create_speech', 'crawl', 'extract', 'fund_account', 'generate_image', 'get_account', 'get_job', 'list_models', 'scrape', 'transcribe'].sort(),
    );
    for (const tool of result.tools) expect(tool.inputSchema.type, tool.name).toBe('object');
    const scrape = result.tools.find((t) => t.name === 'scrape')!;
    expect(Object.keys(scrape.inputSchema.properties!)).toEqual(['url', 'format', 'stealth', 'timeout_ms']);
  });

  it('get_account runs GET /agent/account with the caller key and returns its JSON', async () => {
    const { api_key: apiKey, account_id: accountId } = await register();
    const result = await callTool(apiKey, 'get_account');
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.account_id).toBe(accountId);
    expect(result._meta?.['x-service/request_id']).toMatch(/^req_/);
  });

  it('a route refusal is a tool error carrying the public envelope', async () => {
    const { api_key: apiKey } = await register();
    const result = await callTool(apiKey, 'scrape', { url: 'not a url' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: expect.objectContaining({ code: 'invalid_request', type: 'invalid_request_error', param: 'url' }) });
  });

  it('an unfunded account gets 402 with funding as a tool error', async () => {
    const { api_key: apiKey } = await register();
    const result = await callTool(apiKey, 'scrape', { url: 'https://example.com/' });
    expect(result.isError).toBe(true);
    const error = result.structuredContent.error as { code: string; funding?: unknown };
    expect(error.code).toBe('insufficient_credits');
    expect(error.funding).toBeDefined();
  });

  it('fund_account runs POST /agent/fund: where USDC is not configured, its 502 is the tool error', async () => {
    const { api_key: apiKey } = await register();
    const result = await callTool(apiKey, 'fund_account', { amount_usd: 10 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: expect.objectContaining({ code: 'funding_unavailable', type: 'api_error' }) });
  });

  it('fund_account validates as the route does (amount below $5 names amount_usd)', async () => {
    const { api_key: apiKey } = await register();
    const result = await callTool(apiKey, 'fund_account', { amount_usd: 1 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: expect.objectContaining({ code: 'invalid_request', param: 'amount_usd' }) });
  });

  it('get_job without a valid kind is refused in the envelope before any route runs', async () => {
    const { api_key: apiKey } = await register();
    const result = await callTool(apiKey, 'get_job', { kind: 'speech', id: 'x' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: expect.objectContaining({ code: 'invalid_request', param: 'arguments' }) });
  });
});
