import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type Chain } from '../upstreams/anvil';
import { startFalUpstream, type FalUpstream } from '../upstreams/fal';
import type { Upstream } from '../upstreams/server';
import { startWebsite } from '../upstreams/website';
import { startStack, type Stack } from './stack';

/**
 * The MCP server at /mcp as an agent meets it: the official SDK Client over Streamable HTTP, each
 * tool running its real route (billed, validated, guarded) against the local simulators.
 */

const FAL_KEY = 'fal-mcp-test';
let stack: Stack;
let site: Upstream;
let fal: FalUpstream;
let chain: Chain;

beforeAll(async () => {
  [site, fal, chain] = await Promise.all([startWebsite(), startFalUpstream(FAL_KEY), startChain()]);
  stack = await startStack({
    WEB_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
    WEB_BLOCKED_DOMAINS: 'localhost',
    FAL_API_KEY: FAL_KEY,
    FAL_BASE_URL: fal.url,
    BASE_RPC_URL: chain.rpcUrl,
    USDC_CONTRACT: chain.token,
    USDC_DEPOSIT_ADDRESS: chain.accounts[9]!,
  });
});
afterAll(async () => {
  await stack?.stop();
  await Promise.all([site?.stop(), fal?.stop(), chain?.stop()]);
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);

async function connect(apiKey: string) {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${stack.gateway.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
  });
  await client.connect(transport);
  return client;
}

interface Result {
  isError?: boolean;
  structuredContent?: Record<string, any>;
  _meta?: Record<string, any>;
  content: unknown[];
}

describe('MCP at /mcp', () => {
  it('lists the tools, each with an input schema', async () => {
    const account = await stack.fundedAccount('1');
    const client = await connect(account.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['chat_completion', 'create_embedding', 'create_speech', 'crawl', 'extract', 'fund_account', 'generate_image', 'get_account', 'get_job', 'list_models', 'scrape', 'transcribe'].sort(),
    );
    for (const tool of tools) expect(tool.inputSchema.type, tool.name).toBe('object');
    expect(tools.find((t) => t.name === 'chat_completion')!.inputSchema.required).toEqual(expect.arrayContaining(['model', 'messages']));
    const models = (await client.callTool({ name: 'list_models', arguments: {} })) as Result;
    expect(models.isError).toBeUndefined();
    expect(models.structuredContent!.data.length).toBeGreaterThan(0);
    await client.close();
  });

  it('chat_completion is billed as the route: the cost in _meta is the balance drop', async () => {
    const account = await stack.fundedAccount('2');
    const before = micros(await account.balance());
    const client = await connect(account.apiKey);
    const result = (await client.callTool({
      name: 'chat_completion',
      arguments: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
    })) as Result;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent!.choices[0].message.content.length).toBeGreaterThan(0);
    expect(result._meta!['x-service/request_id']).toMatch(/^req_/);
    const cost = micros(result._meta!['x-service/cost_usd']);
    expect(cost).toBeGreaterThan(0);
    let after = micros(await account.balance());
    for (let i = 0; i < 50 && after !== before - cost; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = micros(await account.balance());
    }
    expect(after).toBe(before - cost);
    await client.close();
  });

  it('scrape, then a crawl followed to completion through get_job', async () => {
    const account = await stack.fundedAccount('1');
    const client = await connect(account.apiKey);
    const page = (await client.callTool({ name: 'scrape', arguments: { url: `${site.url}/article` } })) as Result;
    expect(page.isError).toBeUndefined();
    expect(page.structuredContent!.content).toContain('# Understanding Tables');
    expect(micros(page._meta!['x-service/cost_usd'])).toBe(2000);

    const started = (await client.callTool({ name: 'crawl', arguments: { url: `${site.url}/`, limit: 2 } })) as Result;
    expect(started.isError).toBeUndefined();
    const id = started.structuredContent!.id as string;
    let job: Result | undefined;
    for (let i = 0; i < 300; i++) {
      job = (await client.callTool({ name: 'get_job', arguments: { kind: 'crawl', id } })) as Result;
      if (job.structuredContent!.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(job!.structuredContent).toMatchObject({ id, status: 'completed', page_count: 2 });
    await client.close();
  });

  it('generate_image answers a hosted link', async () => {
    const account = await stack.fundedAccount('1');
    const client = await connect(account.apiKey);
    const result = (await client.callTool({ name: 'generate_image', arguments: { model: 'black-forest-labs/flux-1-schnell', prompt: 'a fox' } })) as Result;
    expect(result.structuredContent).toMatchObject({ data: [{ url: expect.stringMatching(/^http/) }] });
    expect(result.isError).toBeUndefined();
    await client.close();
  });

  it('get_account and fund_account: the balance, the USDC deposit and the fund page', async () => {
    const account = await stack.fundedAccount('1');
    const client = await connect(account.apiKey);
    const me = (await client.callTool({ name: 'get_account', arguments: {} })) as Result;
    expect(me.structuredContent).toMatchObject({ account_id: account.accountId, balance_usd: await account.balance() });
    const fund = (await client.callTool({ name: 'fund_account', arguments: { amount_usd: 10 } })) as Result;
    expect(fund.structuredContent!.error).toBeUndefined();
    expect(fund.isError).toBeUndefined();
    expect(fund.structuredContent).toMatchObject({
      network: 'base',
      token: 'usdc',
      amount_usd: 10,
      deposit_address: chain.accounts[9],
      fund_url: expect.stringContaining('/fund/'),
    });
    await client.close();
  });

  it('an unfunded account gets the 402 as a tool error with the envelope and error.funding', async () => {
    const account = await stack.fundedAccount('0');
    const client = await connect(account.apiKey);
    const result = (await client.callTool({
      name: 'chat_completion',
      arguments: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] },
    })) as Result;
    expect(result.isError).toBe(true);
    expect(result.structuredContent!.error).toMatchObject({ code: 'insufficient_credits', type: 'insufficient_credits_error' });
    expect(result.structuredContent!.error.funding).toMatchObject({ available_usd: expect.any(String) });
    await client.close();
  });

  it('refuses a client without a key: 401 naming the protected-resource metadata', async () => {
    const res = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http.*\/\.well-known\/oauth-protected-resource"$/);
    const metadata = await fetch(res.headers.get('www-authenticate')!.match(/"(.*)"/)![1]!);
    expect(await metadata.json()).toMatchObject({ bearer_methods_supported: ['header'] });
  });
});
