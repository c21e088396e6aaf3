import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCredit, bearer, call, expectError, freshIp, register } from './helpers';

/**
 * D20: every JSON route reads its body as JSON whatever `Content-Type` says, and no client input
 * ever produces a 500. The routes come from `/openapi.json`, so a new JSON route without a case
 * here fails the first test.
 */

interface Operation {
  requestBody?: { content: Record<string, unknown> };
  security?: unknown[];
}

async function jsonRoutes(): Promise<{ method: string; path: string }[]> {
  const doc = (await (await call('/openapi.json')).json()) as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([, operation]) => operation.requestBody?.content['application/json'])
      .map(([method, _]) => ({ method: method.toUpperCase(), path })),
  );
}

/** Per route: a body whose one field has the wrong type, and that field's name. */
const WRONG_FIELD: Record<string, { body: Record<string, unknown>; param: string }> = {
  'POST /agent/register': { body: { type: 42 }, param: 'type' },
  'POST /v1/chat/completions': { body: { model: 42, messages: [{ role: 'user', content: 'hi' }] }, param: 'model' },
  'POST /v1/messages': { body: { model: 42, max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }, param: 'model' },
  'POST /v1/messages/count_tokens': { body: { model: 42, messages: [{ role: 'user', content: 'hi' }] }, param: 'model' },
  'POST /v1/responses': { body: { model: 42, input: 'hi' }, param: 'model' },
  'POST /v1/embeddings': { body: { model: 42, input: 'hi' }, param: 'model' },
  'POST /v1/quote': { body: { path: 42, body: {} }, param: 'path' },
  'POST /v1/images/generations': { body: { model: 42, prompt: 'a fox' }, param: 'model' },
  'POST /v1/images/jobs': { body: { model: 'openai/gpt-image-1-mini', prompt: 42 }, param: 'prompt' },
  'POST /v1/audio/speech': { body: { model: 'openai/tts-1', input: 42 }, param: 'input' },
  'POST /v1/audio/transcriptions': { body: { model: 'openai/whisper-1', file_url: 42 }, param: 'file_url' },
  'POST /v1/uploads': { body: { content_type: 42, content_length: 10 }, param: 'content_type' },
  'POST /v1/videos/generations': { body: { model: 'openai/sora-2', prompt: 42 }, param: 'prompt' },
  'POST /v1/scrape': { body: { url: 42 }, param: 'url' },
  'POST /v1/crawl': { body: { url: 42 }, param: 'url' },
  'POST /v1/extract': { body: { scraper: 42, input: { url: 'https://example.com' } }, param: 'scraper' },
  'POST /admin/accounts/{account_id}/credits': { body: { amount_usd: 5, reason: 'x' }, param: 'amount_usd' },
  'POST /admin/accounts/{account_id}/keys': { body: { name: 42 }, param: 'name' },
  'PATCH /admin/accounts/{account_id}/keys/{key_id}': { body: { name: 42 }, param: 'name' },
  'POST /admin/accounts/{account_id}/holds/{hold_id}/release': { body: { reason: 42 }, param: 'reason' },
  'POST /admin/accounts/{account_id}/suspend': { body: { reason: 42 }, param: 'reason' },
  'POST /admin/accounts/{account_id}/unsuspend': { body: { reason: 42 }, param: 'reason' },
  'POST /admin/accounts/{account_id}/human/reset': { body: { reason: 42 }, param: 'reason' },
  'POST /agent/fund': { body: { amount_usd: '10' }, param: 'amount_usd' },
  'POST /agent/keys': { body: { name: 42 }, param: 'name' },
  'POST /agent/claim/init': { body: { claim_token: 42 }, param: 'claim_token' },
  'POST /agent/claim/poll': { body: { claim_token: 42 }, param: 'claim_token' },
  'POST /admin/deposits/{deposit_id}/credit': { body: { account_id: 42, reason: 'x' }, param: 'account_id' },
  'POST /admin/organizations': { body: { name: 42 }, param: 'name' },
  'POST /admin/organizations/{organization_id}/invites': { body: { auto_approve: 'yes' }, param: 'auto_approve' },
  'POST /agent/org/join': { body: { invite_code: 42 }, param: 'invite_code' },
};

/** What a client that holds valid credentials sends to a route: its URL and Authorization. */
async function caller(): Promise<(path: string) => { url: string; auth: Record<string, string> }> {
  const agent = await register();
  await adminCredit(agent.account_id, '1.00');
  return (path) => {
    const url = path
      .replace('{account_id}', agent.account_id)
      .replace('{organization_id}', agent.account_id)
      .replace('{key_id}', 'key_unknown')
      .replace('{hold_id}', 'hold_unknown')
      .replace('{deposit_id}', `0x${'ab'.repeat(32)}:0`);
    const token = path.startsWith('/admin/') ? ADMIN_TOKEN : agent.api_key;
    return { url, auth: { Authorization: `Bearer ${token}`, 'CF-Connecting-IP': freshIp() } };
  };
}

const CONTENT_TYPES: [string, Record<string, string>][] = [
  ['application/json', { 'Content-Type': 'application/json' }],
  ['text/plain (fetch with a string body)', { 'Content-Type': 'text/plain;charset=UTF-8' }],
  ['application/x-www-form-urlencoded (curl -d)', { 'Content-Type': 'application/x-www-form-urlencoded' }],
  ['no Content-Type', {}],
  // Spellings of JSON that Hono's and zod-openapi's media-type checks refused with 415 (issue 35).
  ...[
    'application/json;',
    'application/json ; charset=utf-8',
    'APPLICATION/JSON',
    'application/json;charset="utf-8"',
    'application/json; charset=utf-8;',
    'application/vnd.api+json',
    'application/merge-patch+json',
    'application/problem+json; charset=utf-8',
    'application/vnd_gateway+json',
  ].map((type): [string, Record<string, string>] => [type, { 'Content-Type': type }]),
];

function send(method: string, url: string, headers: Record<string, string>, body: BodyInit | null): Promise<Response> {
  // A string body makes fetch add text/plain; bytes add nothing, so "no Content-Type" stays absent.
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return call(url, { method, headers, body: bytes });
}

describe('JSON bodies whatever the Content-Type (D20)', () => {
  it('has a case for every JSON route of the OpenAPI document', async () => {
    const routes = (await jsonRoutes()).map(({ method, path }) => `${method} ${path}`);
    expect(routes.length).toBeGreaterThan(5);
    expect(routes.filter((route) => !WRONG_FIELD[route])).toEqual([]);
  });

  it.each(CONTENT_TYPES)('parses the body sent as %s on every JSON route', async (_, typeHeader) => {
    const as = await caller();
    for (const { method, path } of await jsonRoutes()) {
      const { body, param } = WRONG_FIELD[`${method} ${path}`]!;
      const { url, auth } = as(path);
      const res = await send(method, url, { ...auth, ...typeHeader }, JSON.stringify(body));
      // The field at fault is named: the body was read as JSON and validated.
      await expectError(res, 400, 'invalid_request', 'invalid_request_error', param);
    }
  });

  it.each(['application/json;', 'APPLICATION/JSON ; charset=utf-8', 'text/plain'])(
    'validates a request with no body declared as %s as {}, naming the first required field',
    async (type) => {
      const as = await caller();
      const { url, auth } = as('/v1/chat/completions');
      const res = await call(url, { method: 'POST', headers: { ...auth, 'Content-Type': type } });
      await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'model');
    },
  );

  it.each(CONTENT_TYPES)('answers a malformed body sent as %s with 400 on every JSON route', async (_, typeHeader) => {
    const as = await caller();
    for (const { method, path } of await jsonRoutes()) {
      const { url, auth } = as(path);
      const res = await send(method, url, { ...auth, ...typeHeader }, '{"model": "openai/gpt-4o-mini",');
      const body = await expectError(res, 400, 'invalid_request', 'invalid_request_error');
      expect(body.error.message).toMatch(/not valid JSON/);
    }
  });
});

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const invalidUtf8 = new Uint8Array([0x7b, 0x22, 0x74, 0x79, 0x70, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]);

const GARBAGE: [string, BodyInit | null][] = [
  ['an empty body', ''],
  ['whitespace', '  \n '],
  ['a JSON array', '[1, 2, 3]'],
  ['JSON null', 'null'],
  ['a JSON string', '"anonymous"'],
  ['a JSON number', '12345'],
  ['a huge number', '{"model": 1e400, "messages": 1e400, "url": 1e400, "type": 1e400, "amount_usd": 1e400, "limit": 1e400}'],
  ['huge integers where integers go', '{"n": 99999999999999999999999, "max_tokens": 1e308, "limit": -1e308, "timeout_ms": 1e308}'],
  ['every field the wrong type', '{"model": [], "messages": "hi", "url": {}, "type": [], "scraper": true, "input": 7, "amount_usd": {}, "reason": [], "name": {}, "stream": "yes", "format": 3, "stealth": "always", "allowed_models": "all"}'],
  ['nulls everywhere', '{"model": null, "messages": null, "url": null, "type": null, "scraper": null, "input": null, "amount_usd": null, "reason": null}'],
  ['messages of the wrong shape', '{"model": "openai/gpt-4o-mini", "messages": [1, null, "x", {"role": 5}, {"role": "user", "content": {"a": 1}}]}'],
  ['an object nested 100,000 deep', `{"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}], "extra": ${deep(100_000)}, "url": ${deep(100_000)}}`],
  ['an array nested 1,000 deep in a loose member', `{"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}], "response_format": ${deep(1000)}}`],
  ['invalid UTF-8', invalidUtf8],
  ['a NUL byte and a lone surrogate', '{"type": "anon\\u0000ymous\\ud800", "url": "https://exa\\u0000mple.com/\\udfff", "model": "\\ud800"}'],
  ['a prototype-pollution key', '{"__proto__": {"admin": true}, "constructor": {"prototype": {"x": 1}}, "type": "anonymous"}'],
];

describe('no client input produces a 500 (D20)', () => {
  it.each(GARBAGE)('answers %s on every JSON route with a 4xx in the envelope, never a 500', async (_, body) => {
    const as = await caller();
    for (const { method, path } of await jsonRoutes()) {
      const { url, auth } = as(path);
      for (const typeHeader of [{ 'Content-Type': 'application/json' }, {}] as Record<string, string>[]) {
        const res = await send(method, url, { ...auth, ...typeHeader }, body);
        const route = `${method} ${path}`;
        expect(res.status, route).toBeLessThan(500);
        // Some garbage is still a valid request for a route whose fields are all optional.
        if (res.ok) continue;
        expect(res.status, route).toBeGreaterThanOrEqual(400);
        const envelope = (await res.json()) as { error: { code: string; type: string; message: string } };
        expect(envelope.error.code, route).toEqual(expect.any(String));
        expect(envelope.error.message.length, route).toBeGreaterThan(0);
      }
    }
  });

  it('refuses a body nested deeper than the limit before it reaches the route', async () => {
    const as = await caller();
    const { url, auth } = as('/v1/chat/completions');
    const body = `{"model": "openai/gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}], "metadata": ${deep(200)}}`;
    const res = await send('POST', url, { ...auth, 'Content-Type': 'application/json' }, body);
    const error = await expectError(res, 400, 'invalid_request', 'invalid_request_error');
    expect(error.error.message).toMatch(/nested deeper than 128/);
  });
});
