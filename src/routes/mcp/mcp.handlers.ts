import type { Context, Hono, MiddlewareHandler } from 'hono';
import { holdFailureError } from '../../accounts/failures';
import type { AppEnv } from '../../env';
import { executionContext } from '../../execution-context';
import type { RouteCaller } from '../../mcp/server';
import { publicBaseUrl } from '../../urls';

/**
 * Request headers a tool's in-process call does not inherit from the MCP request (the body and its
 * framing are the tool's own). An x402 `PAYMENT-SIGNATURE` was settled and credited once, on the
 * MCP request itself: a tool that saw it again would try to settle a spent authorization (402).
 */
const NOT_FORWARDED = ['content-type', 'content-length', 'accept', 'accept-encoding', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id', 'payment-signature'];

/**
 * `POST /mcp`: a stateless MCP server (Streamable HTTP, JSON responses, no session). The key is checked
 * once here; each tool then runs its real route in-process with the same key, so it is validated,
 * guarded and billed exactly as that route.
 */
export function mcpHandler(app: Hono<AppEnv>) {
  return async (c: Context<AppEnv>): Promise<Response> => {
    if (c.req.method !== 'POST') {
      // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
      return c.json(
        { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send POST.' }, id: null },
        405,
        { Allow: 'POST' },
      );
    }
    const { account, keyHash } = c.get('caller');
    const auth = await account.authenticate(keyHash);
    if (!auth.ok) throw holdFailureError(auth);

    const call: RouteCaller = (method, path, body) => {
      const headers = new Headers(c.req.raw.headers);
      for (const name of NOT_FORWARDED) headers.delete(name);
      if (body !== undefined) headers.set('content-type', 'application/json');
      const url = new URL(path, c.req.url);
      const init: RequestInit = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) };
      return Promise.resolve(app.fetch(new Request(url, init), c.env, executionContext(c)));
    };
    // The MCP SDK and the tools' schemas are loaded by the first MCP request, not at startup.
    const [{ WebStandardStreamableHTTPServerTransport }, { createMcpServer }] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
      import('../../mcp/server'),
    ]);
    const server = createMcpServer(call);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  };
}

/** A 401 on /mcp names the protected-resource metadata (RFC 9728, MCP authorization), so a client learns where keys come from. */
export function withMcpChallenge(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status === 401) {
      c.res.headers.set('WWW-Authenticate', `Bearer resource_metadata="${publicBaseUrl(c)}/.well-known/oauth-protected-resource"`);
    }
  };
}
