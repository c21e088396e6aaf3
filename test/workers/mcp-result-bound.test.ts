import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer, MAX_RESULT_BYTES, type RouteCaller } from '../../src/mcp/server';

/**
 * Issue 35, item 7: an MCP tool's route answer is read counting its bytes as they arrive, so a
 * result past 4 MiB is refused (and the rest of it not read) whether or not it declared a length.
 * The MCP server is driven as `POST /mcp` drives it, with a route caller that answers what the
 * test says instead of the gateway's routes.
 */

async function callScrape(answer: () => Response): Promise<{ result: { isError?: boolean; structuredContent: { error?: { code: string; message: string } } } }> {
  const call: RouteCaller = async () => answer();
  const server = createMcpServer(call);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const request = new Request('https://gateway.test/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'scrape', arguments: { url: 'https://example.com/' } } }),
    });
    const res = await transport.handleRequest(request);
    expect(res.status).toBe(200);
    return res.json();
  } finally {
    await server.close();
  }
}

/** A JSON body streamed in 64 KiB chunks with no Content-Length; `pulled` counts the bytes the reader took. */
function streamedJson(totalBytes: number) {
  const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
  const counter = { pulled: 0 };
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(new TextEncoder().encode('{"markdown":"'));
        sent = 1;
        return;
      }
      if (counter.pulled >= totalBytes) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      counter.pulled += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  return { body, counter };
}

describe('an MCP tool result', () => {
  it('is refused past 4 MiB when the route streams it without a length, and the rest is not read', async () => {
    const { body, counter } = streamedJson(64 * 1024 * 1024);
    const { result } = await callScrape(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toMatchObject({ code: 'api_error', message: expect.stringContaining('larger than an MCP tool result may be') });
    expect(counter.pulled).toBeLessThan(MAX_RESULT_BYTES + 256 * 1024);
  });

  it('is refused past 4 MiB when the route declared a smaller length than it sends', async () => {
    const { body } = streamedJson(8 * 1024 * 1024);
    const { result } = await callScrape(() => new Response(body, { headers: { 'content-type': 'application/json', 'content-length': '100' } }));
    expect(result.structuredContent.error).toMatchObject({ code: 'api_error' });
  });

  it('is refused unread when the route declares more than 4 MiB', async () => {
    const { body, counter } = streamedJson(8 * 1024 * 1024);
    const { result } = await callScrape(() => new Response(body, { headers: { 'content-length': String(MAX_RESULT_BYTES + 1) } }));
    expect(result.structuredContent.error).toMatchObject({ code: 'api_error' });
    expect(counter.pulled).toBeLessThan(256 * 1024);
  });

  it('is taken whole up to 4 MiB, streamed or not', async () => {
    const { body } = streamedJson(3 * 1024 * 1024);
    const { result } = await callScrape(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
    expect(result.isError).toBeUndefined();
    expect((result.structuredContent as { markdown?: string }).markdown).toHaveLength(3 * 1024 * 1024);
  });
});
