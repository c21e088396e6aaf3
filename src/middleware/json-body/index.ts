import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { GatewayError } from '../../errors';

/** Deeper than any real request, far shallower than what overflows `JSON.stringify`'s stack. */
export const MAX_JSON_DEPTH = 128;

/**
 * D20: a JSON route reads its body as JSON whatever `Content-Type` says (`curl -d` sends
 * `application/x-www-form-urlencoded`, `fetch` with a string body `text/plain`, some clients
 * none). The body is parsed once here and handed to the route's validator; a body that is not
 * a JSON object, or is nested deeper than `MAX_JSON_DEPTH`, is 400 `invalid_request`. No body at
 * all is validated as `{}`, so the answer names the first required field. The body is parsed
 * once: `c.req.json()` answers the parsed object from then on.
 */
export function parseJsonBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const declared = c.req.header('Content-Type');
    if (c.req.raw.body === null && declared === undefined) return next();
    const text = await c.req.text();
    const value = text.trim() === '' ? {} : parseObject(text);
    if (declared !== 'application/json') {
      // The route's media-type gate and validator know only a few spellings of JSON (415 for
      // `application/json;`, `APPLICATION/JSON ; charset=utf-8`...): they see the one they all
      // accept. The body itself is already read; the client's signal goes along.
      const headers = new Headers(c.req.raw.headers);
      headers.set('Content-Type', 'application/json');
      c.req.raw = new Request(c.req.url, { method: c.req.method, headers, signal: c.req.raw.signal });
    }
    const parsed = Promise.resolve(value);
    c.req.bodyCache.json = parsed;
    // Hono's `json()` parses the cached text again on every call, and the route's validator
    // calls it: the object parsed above is the answer (a 100 KB prompt was parsed twice).
    c.req.json = <T>() => parsed as Promise<T>;
    await next();
  };
}

function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new GatewayError('invalid_request', 'The request body is not valid JSON: send one JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new GatewayError('invalid_request', 'The request body must be a JSON object.');
  }
  if (depthExceeds(value, MAX_JSON_DEPTH)) {
    throw new GatewayError('invalid_request', `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  return value as Record<string, unknown>;
}

/** Whether arrays and objects nest deeper than `limit`; iterative, so any depth is safe to ask about. */
export function depthExceeds(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
