import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { createApp } from '../../src/app';
import { consumeQueue } from '../../src/queue/consumer';
import { withoutQueries } from '../../src/observability/request-log';
import type { QueueMessage } from '../../src/queue/messages';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { ADMIN_TOKEN, adminCredit, register } from './helpers';

/**
 * docs/operators/observability.md: one JSON line per request, written when the response is complete (for
 * a stream, when it ends, with its cost), and one per queue message. Observed through
 * console.log, as Workers Logs and `wrangler tail` read it.
 */
const app = createApp();
const UPSTREAM_KEY = 'sk-upstream-secret-for-logs';
const PROMPT = 'Tell me about the purple elephant';
const gateway = {
  ...env,
  OPENAI_API_KEY: UPSTREAM_KEY,
  OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1`,
  WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host,
} as Env;

afterEach(() => {
  vi.restoreAllMocks();
});

type Line = Record<string, unknown>;

/** Sends a request to the app, reads the whole answer, lets its waitUntil work finish; the lines it logged. */
async function logged(path: string, init: RequestInit, target: Env = gateway): Promise<{ res: Response; text: string; lines: Line[]; raw: string }> {
  const log = vi.spyOn(console, 'log');
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://gateway.test${path}`, init), target, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  const raw = log.mock.calls.map((args) => String(args[0])).join('\n');
  const lines = log.mock.calls.map((args) => String(args[0])).filter((text) => text.startsWith('{"event":')).map((text) => JSON.parse(text) as Line);
  log.mockRestore();
  return { res, text, lines, raw };
}

function post(body: unknown, apiKey?: string): RequestInit {
  return { method: 'POST', headers: { 'Content-Type': 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) }, body: JSON.stringify(body) };
}

const chatBody = (stream: boolean) => ({ model: 'openai/gpt-4o-mini', max_tokens: 20, stream, messages: [{ role: 'user', content: PROMPT }] });

describe('the request log line', () => {
  it('of an image generation names its model, provider and cost', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    // The render's backstop message is recorded, not queued: this test delivers nothing.
    const JOBS = { send: async () => {} };
    const images = { ...gateway, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1`, JOBS } as unknown as Env;
    const { res, text, lines } = await logged('/v1/images/generations', post({ model: 'openai/gpt-image-1-mini', prompt: 'a red square', size: '1024x1024' }, agent.api_key), images);
    expect(res.status, text).toBe(200);
    expect(lines.filter((line) => line.event === 'request')).toEqual([
      expect.objectContaining({ route: '/v1/images/generations', status: 200, account_id: agent.account_id, model: 'openai/gpt-image-1-mini', provider: 'openai', cost_usd: res.headers.get('X-Service-Cost') }),
    ]);
  });

  it.each([false, true])('of a chat completion names the account, key, model, provider and cost, and no secret or prompt (stream: %s)', async (stream) => {
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    const { res, text, lines, raw } = await logged('/v1/chat/completions', post(chatBody(stream), agent.api_key));
    expect(res.status, text).toBe(200);
    const requests = lines.filter((line) => line.event === 'request');
    expect(requests).toHaveLength(1);
    const line = requests[0]!;
    const view = (await (await app.fetch(new Request(`https://gateway.test/admin/accounts/${agent.account_id}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }), env)).json()) as {
      keys: { id: string }[];
      ledger: { kind: string; amount_usd: string }[];
    };
    const charged = view.ledger.find((row) => row.kind === 'charge')!.amount_usd.replace('-', '');
    expect(line).toEqual({
      event: 'request',
      request_id: res.headers.get('X-Service-Request-Id'),
      method: 'POST',
      route: '/v1/chat/completions',
      status: 200,
      account_id: agent.account_id,
      key_id: view.keys[0]!.id,
      model: 'openai/gpt-4o-mini',
      provider: 'openai',
      cost_usd: charged,
      upstream_ms: expect.any(Number),
      total_ms: expect.any(Number),
      decision_cache: 'miss',
    });
    for (const secret of [agent.api_key, agent.api_key.slice(3), UPSTREAM_KEY, ADMIN_TOKEN, 'purple elephant']) expect(raw).not.toContain(secret);
  });

  it('of an error carries its error_code', async () => {
    const agent = await register();
    const { res, lines } = await logged('/v1/chat/completions', post({ ...chatBody(false), model: 'nobody/no-such-model' }, agent.api_key));
    expect(res.status).toBe(404);
    expect(lines).toEqual([expect.objectContaining({ event: 'request', status: 404, route: '/v1/chat/completions', account_id: agent.account_id, error_code: 'model_not_found' })]);
    const refused = await logged('/v1/chat/completions', post(chatBody(false), 'ak-not-a-key'));
    expect(refused.lines).toEqual([expect.objectContaining({ status: 401, error_code: 'invalid_api_key' })]);
    expect(refused.raw).not.toContain('ak-not-a-key');
  });

  it('of a scrape names the rail that served and its cost', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    const { res, text, lines } = await logged('/v1/scrape', post({ url: `${inject('websiteUrl')}/article`, stealth: false }, agent.api_key));
    expect(res.status, text).toBe(200);
    expect(lines).toEqual([
      expect.objectContaining({ route: '/v1/scrape', status: 200, account_id: agent.account_id, key_id: expect.stringMatching(/^key_/), rail: 'standard', cost_usd: res.headers.get('X-Service-Cost'), upstream_ms: expect.any(Number) }),
    ]);
  });

  it('names a capability route by its pattern, never its token', async () => {
    const token = 'A'.repeat(43);
    const { res, lines, raw } = await logged(`/uploads/${token}?sig=abc`, { method: 'PUT', body: 'x' });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(lines).toEqual([expect.objectContaining({ method: 'PUT', route: '/uploads/:token', status: res.status, error_code: expect.any(String) })]);
    expect(raw).not.toContain(token);
  });

  it('of an operator call names the account of its path, and an unknown address has no route', async () => {
    const agent = await register();
    const { lines } = await logged(`/admin/accounts/${agent.account_id}/suspend`, { ...post({ reason: 'review' }), headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(lines).toEqual([expect.objectContaining({ route: '/admin/accounts/:account_id/suspend', status: 200, account_id: agent.account_id })]);
    const unknown = await logged('/no/such/place', { headers: { Accept: 'application/json' } });
    expect(unknown.lines).toEqual([expect.objectContaining({ route: null, path: '/no/such/place', status: 404, error_code: 'not_found' })]);
  });

  it('of an unmatched route records its path, cut short and without the segments that may be secrets', async () => {
    const key = `ak-${'k'.repeat(45)}`;
    const token = 'T'.repeat(43);
    const { lines, raw } = await logged(`/v1/keys/${key}/fund/${token}/x?api_key=${key}`, { headers: { Accept: 'application/json' } });
    expect(lines).toEqual([expect.objectContaining({ route: null, path: '/v1/keys/…/fund/…/x', status: 404 })]);
    expect(raw).not.toContain(key);
    expect(raw).not.toContain(token);
    const long = await logged(`/v1/${'a/'.repeat(300)}`, { headers: { Accept: 'application/json' } });
    expect((long.lines[0]!.path as string).length).toBe(201);
  });
});

describe('an unknown /v1 route', () => {
  it('answers 404 naming the closest served routes', async () => {
    const typo = await logged('/v1/chat/completion', post({}));
    expect(typo.res.status).toBe(404);
    const message = (JSON.parse(typo.text) as { error: { message: string } }).error.message;
    expect(message).toMatch(/^No route for POST \/v1\/chat\/completion\. Closest served: POST \/v1\/chat\/completions, /);
    expect(message).toContain('GET /openapi.json lists every route');
    // A served path with another method: the route it has is named first.
    const wrongMethod = await logged('/v1/chat/completions', { headers: { Accept: 'application/json' } });
    expect((JSON.parse(wrongMethod.text) as { error: { message: string } }).error.message).toContain('Closest served: POST /v1/chat/completions');
    const parameter = await logged('/v1/videos/generations/abc', { method: 'DELETE', headers: { Accept: 'application/json' } });
    expect((JSON.parse(parameter.text) as { error: { message: string } }).error.message).toContain('Closest served: GET /v1/videos/generations/{id}');
  });
});

describe('the job log line', () => {
  /** One delivery of `body` to the consumer with `consumerEnv`; the lines it logged. */
  async function deliver(body: QueueMessage, consumerEnv: Env): Promise<Line[]> {
    const log = vi.spyOn(console, 'log');
    const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: 2, body, ack: () => {}, retry: () => {} };
    await consumeQueue({ queue: 'ai-gateway-jobs', messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<QueueMessage>, consumerEnv);
    const lines = log.mock.calls.map((args) => String(args[0])).filter((text) => text.startsWith('{"event":"job"')).map((text) => JSON.parse(text) as Line);
    log.mockRestore();
    return lines;
  }

  it('names the message kind, its subject, the attempt, the outcome and the time taken', async () => {
    const agent = await register();
    const body: QueueMessage = { kind: 'account.expire', accountId: agent.account_id, now: Date.now() };
    expect(await deliver(body, env)).toEqual([
      { event: 'job', queue: 'ai-gateway-jobs', kind: 'account.expire', account_id: agent.account_id, attempt: 2, outcome: 'done', ms: expect.any(Number) },
    ]);
    // A step that fails is retried, and says why.
    const broken = { ...env, DB: undefined } as unknown as Env;
    expect(await deliver({ kind: 'image.render', jobId: 'job_missing' }, broken)).toEqual([
      expect.objectContaining({ kind: 'image.render', job_id: 'job_missing', outcome: 'retry', error: expect.any(String) }),
    ]);
  });

  it("drops URL queries (a provider's key, a signed link) from the error it logs", () => {
    expect(withoutQueries('GET https://upstream.test/v1/models/x:generate?key=AIzaSecret&alt=sse failed; see "https://a.test/b?X-Amz-Signature=abc"')).toBe(
      'GET https://upstream.test/v1/models/x:generate?[redacted] failed; see "https://a.test/b?[redacted]"',
    );
  });
});
