import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { MAX_RESULT_BYTES } from '../../src/mcp/server';
import { adminCredit, register } from './helpers';

/**
 * Issue 35, item 7: what a tool's route answers is read counting its bytes, and refused past
 * 4 MiB. What that protects: `scrape` takes pages of up to the standard rail's 10 MiB, and a tool
 * result carries the route's JSON twice (as `structuredContent` and in the text summary), so one
 * large page would be buffered and serialized several times over in the isolate's 128 MB and
 * handed whole to the agent's context. Driven as an agent meets it: the official SDK Client over
 * Streamable HTTP at `/mcp`, each tool running its real route against the local web site.
 */

const app = createApp();
const site = inject('websiteUrl');
const webEnv = { ...env, WEB_ALLOW_PRIVATE_HOSTS: new URL(site).host } as Env;

/** What `/mcp` sent back, in bytes, per answer: the bound keeps them small. */
const answered: number[] = [];

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'mcp-bound-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('https://gateway.test/mcp'), {
    requestInit: { headers: { Authorization: `Bearer ${apiKey}` } },
    fetch: async (url, init) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(url, init), webEnv, ctx);
      const bytes = await res.arrayBuffer();
      await waitOnExecutionContext(ctx);
      answered.push(bytes.byteLength);
      return new Response(bytes, { status: res.status, headers: res.headers });
    },
  });
  await client.connect(transport);
  return client;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: { error?: { code: string; message: string }; content?: string };
  _meta?: Record<string, string | null>;
}

async function fundedKey(): Promise<string> {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return agent.api_key;
}

describe('an MCP tool result over /mcp', () => {
  it('refuses a scrape whose answer passes 4 MiB (a 10 MB page) as isError api_error, without sending the page', async () => {
    const apiKey = await fundedKey();
    // The route itself answers the whole page: the bound, not the route, is what refuses it.
    const direct = await app.fetch(
      new Request('https://gateway.test/v1/scrape', { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ url: `${site}/large`, format: 'markdown' }) }),
      webEnv,
      createExecutionContext(),
    );
    expect(direct.status).toBe(200);
    expect((await direct.arrayBuffer()).byteLength).toBeGreaterThan(MAX_RESULT_BYTES);

    const client = await connect(apiKey);
    answered.length = 0;
    const result = (await client.callTool({ name: 'scrape', arguments: { url: `${site}/large`, format: 'markdown' } })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error).toMatchObject({ code: 'api_error', message: `The scrape result is larger than an MCP tool result may be (${MAX_RESULT_BYTES} bytes).` });
    expect(result.structuredContent?.content).toBeUndefined();
    // The route ran (and billed its page); its request id and cost still reach the agent.
    expect(result._meta?.['x-service/request_id']).toMatch(/^req_/);
    expect(result._meta?.['x-service/cost_usd']).toBe('0.002000');
    expect(Math.max(...answered)).toBeLessThan(4096);
    await client.close();
  });

  it('takes a scrape whose answer is under 4 MiB (a page with 3 MB of JSON-LD) whole', async () => {
    const apiKey = await fundedKey();
    const args = { url: `${site}/large-product`, format: 'html' };
    const direct = await app.fetch(new Request('https://gateway.test/v1/scrape', { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(args) }), webEnv, createExecutionContext());
    expect(direct.status).toBe(200);
    const page = (await direct.json()) as { content: string };
    const size = new TextEncoder().encode(JSON.stringify(page)).byteLength;
    expect(size).toBeGreaterThan(2 * 1024 * 1024);
    expect(size).toBeLessThan(MAX_RESULT_BYTES);

    const client = await connect(apiKey);
    const result = (await client.callTool({ name: 'scrape', arguments: args })) as ToolResult;
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ content: page.content, url: args.url });
    await client.close();
  });
});
