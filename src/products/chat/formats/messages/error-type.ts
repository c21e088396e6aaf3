import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../../../env';

/**
 * Errors on the Messages routes carry a top-level `"type": "error"` beside the usual envelope
 * (contract), as Anthropic's own do, so Anthropic clients read them. The renderer has already
 * written the envelope when `next()` returns (Hono renders a thrown error where it is thrown), so
 * this rewrites the JSON body it left; first in the chain, it sees the key's and x402's refusals too.
 */
export function anthropicErrorType(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400 || !res.headers.get('content-type')?.includes('application/json')) return;
    const body: unknown = await res.clone().json().catch(() => null);
    if (typeof body !== 'object' || body === null || Array.isArray(body) || !('error' in body) || 'type' in body) return;
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    c.res = new Response(JSON.stringify({ type: 'error', ...body }), { status: res.status, headers });
  };
}
