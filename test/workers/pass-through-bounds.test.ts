import { describe, expect, it } from 'vitest';
import { findModel } from '../../src/catalog';
import { UNSUPPORTED_HEADER } from '../../src/billing/headers';
import { anthropicUrl, chatUrl, funded, received, send } from './routing-helpers';

/**
 * A body that goes to its own provider intact (Responses to OpenAI, Messages to Anthropic, D30)
 * still holds an upper bound of what it can cost (D33): members billed above the catalog's prices
 * are refused, hosted tools and unpriced betas are left out, and input the provider holds or
 * fetches itself counts as the most it can bill.
 */
const OPENAI = 'openai/gpt-4o-mini';
const ANTHROPIC = 'anthropic/claude-haiku-4-5';
const responses = (extra: Record<string, unknown>, nonce = crypto.randomUUID()) => ({ model: OPENAI, input: `Say hello ${nonce}`, store: false, max_output_tokens: 16, ...extra });
const messages = (extra: Record<string, unknown>, nonce = crypto.randomUUID()) => ({ model: ANTHROPIC, max_tokens: 16, messages: [{ role: 'user', content: `Say hello ${nonce}` }], ...extra });

const paramOf = async (res: Response) => ((await res.json()) as { error: { param?: string } }).error.param;

/** The quote's worst case (what the request would hold), in micro-dollars. */
async function worstCase(apiKey: string, path: string, body: unknown): Promise<number> {
  const res = await send('/v1/quote', apiKey, { path, body });
  expect(res.status, await res.clone().text()).toBe(200);
  return Math.round(Number(((await res.json()) as { worst_case_usd: string }).worst_case_usd) * 1e6);
}

function chatModel(id: string) {
  const model = findModel(id)!;
  if (model.type !== 'chat') throw new Error(id);
  return model;
}

/** What a prompt of the model's whole context costs at its input price, in micro-dollars. */
const wholeContextMicros = (id: string) => chatModel(id).contextLength * chatModel(id).routes[0]!.price.inputPerMTok;

describe('Responses to OpenAI, passed through', () => {
  it.each([
    ['a priority service tier', { service_tier: 'priority' }, 'service_tier'],
    ['a flex service tier', { service_tier: 'flex' }, 'service_tier'],
    ['a background response', { background: true }, 'background'],
    ['a conversation held by OpenAI', { conversation: 'conv_123' }, 'conversation'],
    ['a stored prompt template', { prompt: { id: 'pmpt_123' } }, 'prompt'],
  ])('refuses %s with a 400 naming it, and OpenAI is never called', async (_, extra, param) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/responses', agent.api_key, responses(extra, nonce));
    expect(res.status).toBe(400);
    expect(await paramOf(res)).toBe(param);
    expect(await received(chatUrl, nonce)).toHaveLength(0);
    // The quote refuses it the same way.
    expect(await paramOf(await send('/v1/quote', agent.api_key, { path: '/v1/responses', body: responses(extra) }))).toBe(param);
  });

  it('the default tier passes on', async () => {
    const agent = await funded();
    expect((await send('/v1/responses', agent.api_key, responses({ service_tier: 'default' }))).status).toBe(200);
  });

  it("leaves out OpenAI's hosted tools (billed per call), keeps the client's own, and announces tools", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const fn = { type: 'function', name: 'weather', parameters: { type: 'object', properties: {} } };
    const shell = { type: 'local_shell' };
    const hosted = [{ type: 'web_search' }, { type: 'file_search', vector_store_ids: ['vs_1'] }, { type: 'code_interpreter', container: { type: 'auto' } }, { type: 'image_generation' }, { type: 'mcp', server_label: 'x', server_url: 'https://mcp.example' }];
    const res = await send('/v1/responses', agent.api_key, responses({ tools: [fn, ...hosted, shell] }, nonce));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get(UNSUPPORTED_HEADER)).toContain('tools');
    const [sent] = await received(chatUrl, nonce);
    expect(sent!.tools).toEqual([fn, shell]);
    // A namespace keeps only its functions.
    const inner = { type: 'function', name: 'look', parameters: { type: 'object', properties: {} } };
    const nonce2 = crypto.randomUUID();
    expect((await send('/v1/responses', agent.api_key, responses({ tools: [{ type: 'namespace', name: 'ns', tools: [inner, { type: 'web_search' }] }] }, nonce2))).status).toBe(200);
    expect((await received(chatUrl, nonce2))[0]!.tools).toEqual([{ type: 'namespace', name: 'ns', tools: [inner] }]);
  });

  it('a tool_choice forcing a hosted tool is a 400 naming tool_choice', async () => {
    const agent = await funded();
    const forced = responses({ tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } });
    expect(await paramOf(await send('/v1/responses', agent.api_key, forced))).toBe('tool_choice');
    const allowed = responses({ tools: [{ type: 'web_search' }], tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [{ type: 'web_search' }] } });
    expect(await paramOf(await send('/v1/responses', agent.api_key, allowed))).toBe('tool_choice');
  });

  it('an item OpenAI holds by id is held as the whole context; a file it fetches as every page', async () => {
    const agent = await funded('5');
    const plain = await worstCase(agent.api_key, '/v1/responses', responses({}));
    const referenced = await worstCase(agent.api_key, '/v1/responses', responses({ input: [{ role: 'user', content: 'hi' }, { type: 'item_reference', id: 'msg_1' }] }));
    expect(referenced).toBeGreaterThanOrEqual(wholeContextMicros(OPENAI));
    const reasoning = await worstCase(agent.api_key, '/v1/responses', responses({ input: [{ role: 'user', content: 'hi' }, { type: 'reasoning', id: 'rs_1', summary: [] }] }));
    expect(reasoning).toBeGreaterThanOrEqual(wholeContextMicros(OPENAI));
    const byUrl = await worstCase(agent.api_key, '/v1/responses', responses({ input: [{ role: 'user', content: [{ type: 'input_text', text: 'Read' }, { type: 'input_file', file_url: 'https://example.com/a.pdf' }] }] }));
    expect(byUrl).toBeGreaterThanOrEqual(wholeContextMicros(OPENAI));
    // A tool output's image is not in the chat request: the dearest image, not its few bytes.
    const call = { type: 'function_call', call_id: 'c1', name: 'look', arguments: '{}' };
    const output = { type: 'function_call_output', call_id: 'c1', output: [{ type: 'input_image', image_url: 'https://example.com/a.png' }] };
    const withImage = await worstCase(agent.api_key, '/v1/responses', responses({ input: [{ role: 'user', content: 'hi' }, call, output] }));
    const withText = await worstCase(agent.api_key, '/v1/responses', responses({ input: [{ role: 'user', content: 'hi' }, call, { ...output, output: 'ok' }] }));
    expect(withImage - withText).toBeGreaterThanOrEqual(Math.floor(3_000 * chatModel(OPENAI).routes[0]!.price.inputPerMTok));
    expect(plain).toBeLessThan(referenced / 10);
  });
});

describe('Messages to Anthropic, passed through', () => {
  it.each([
    ['a remote MCP server', { mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'x' }] }, 'mcp_servers'],
    ['the web fetch tool', { tools: [{ type: 'web_fetch_20250910', name: 'web_fetch' }] }, 'tools.0'],
    ['the MCP toolset', { tools: [{ type: 'mcp_toolset', name: 'x' }] }, 'tools.0'],
  ])('refuses %s with a 400 naming it, and Anthropic is never called', async (_, extra, param) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/messages', agent.api_key, messages(extra, nonce));
    expect(res.status).toBe(400);
    expect(await paramOf(res)).toBe(param);
    expect(await received(anthropicUrl, nonce)).toHaveLength(0);
  });

  it('a document Anthropic fetches itself (by URL, by file id) is held as every page it may render', async () => {
    const agent = await funded('5');
    const plain = await worstCase(agent.api_key, '/v1/messages', messages({}));
    for (const source of [{ type: 'url', url: 'https://example.com/a.pdf' }, { type: 'file', file_id: 'file_1' }]) {
      const body = messages({ messages: [{ role: 'user', content: [{ type: 'document', source }, { type: 'text', text: 'Summarize' }] }] });
      expect(await worstCase(agent.api_key, '/v1/messages', body)).toBeGreaterThanOrEqual(wholeContextMicros(ANTHROPIC));
    }
    expect(plain).toBeLessThan(wholeContextMicros(ANTHROPIC) / 10);
  });

  it('the 1M-context beta (billed at a premium) is left out of what Anthropic gets, and announced', async () => {
    const agent = await funded();
    const res = await send('/v1/messages', agent.api_key, messages({}), { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14,context-1m-2025-08-07' } });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get(UNSUPPORTED_HEADER)).toContain('anthropic-beta');
    const other = await send('/v1/messages', agent.api_key, messages({}), { headers: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
    expect(other.headers.get(UNSUPPORTED_HEADER)).toBeNull();
  });
});
