import { createExecutionContext, runDurableObjectAlarm, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { REQUEST_RECORD_RETENTION_MS } from '../../durable-objects/account/requests';
import { sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { formatUsd } from '../../src/money';
import { database } from '../../src/db';
import { mediaJob } from '../../src/db/media-jobs';
import type { QueueMessage } from '../../src/queue/messages';
import { pollVideoJob } from '../../src/products/videos/job';
import { IMAGES_UPSTREAM_KEY, VIDEOS_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, bearer, call, expectError, register } from './helpers';

/**
 * D26: a billed request can be looked up by its X-Service-Request-Id, by its own account only,
 * with the cost it was charged and its units; records older than 30 days are pruned.
 */
const chatUrl = inject('chatUpstreamUrl');
const app = createApp();
const withUpstream = { ...env, OPENAI_API_KEY: 'sk-lookup', OPENAI_BASE_URL: `${chatUrl}/v1` } as Env;
const webEnv = { ...env, WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host } as Env;
// The render's backstop message is dropped: the inline render finishes it.
const imagesEnv = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1`, JOBS: { send: async () => {} } } as unknown as Env;

/** A POST through the app as a client sends it; the answer read whole and its waitUntil work done. */
async function post(path: string, apiKey: string, body: unknown, target: Env) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    target,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

async function funded(usd = '1') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function chat(apiKey: string, stream: boolean) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 20, stream, messages: [{ role: 'user', content: 'Hi' }] }),
    }),
    withUpstream,
    ctx,
  );
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { res, text };
}

const lookup = (apiKey: string, requestId: string) => call(`/v1/requests/${encodeURIComponent(requestId)}`, bearer(apiKey));

describe('GET /v1/requests/{request_id}', () => {
  it.each([false, true])('returns a chat request with the cost it was charged and its tokens (stream: %s)', async (stream) => {
    const agent = await funded();
    const { res, text } = await chat(agent.api_key, stream);
    expect(res.status, text).toBe(200);
    const requestId = res.headers.get('x-service-request-id')!;
    const charged = -(await accountStub(agent.account_id).ledgerEntries(10)).find((row) => row.kind === 'charge')!.amountMicros;
    const usage = stream ? JSON.parse(text.split('\n').filter((line) => line.startsWith('data: {')).at(-1)!.slice(6)).usage : JSON.parse(text).usage;
    if (!stream) expect(res.headers.get('x-service-cost')).toBe(formatUsd(charged));

    const found = await lookup(agent.api_key, requestId);
    expect(found.status).toBe(200);
    const body = (await found.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: requestId,
      path: '/v1/chat/completions',
      model: 'openai/gpt-4o-mini',
      provider: expect.any(String),
      status: 'succeeded',
      streamed: stream,
      cost_usd: formatUsd(charged),
      usage: { prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens },
    });
    expect(body.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(body.created_at as string)).toBeLessThanOrEqual(Date.now());
  });

  it('returns a scrape with its page, and a failed scrape as failed at no cost', async () => {
    const agent = await funded();
    const { res, text } = await post('/v1/scrape', agent.api_key, { url: `${inject('websiteUrl')}/article`, stealth: false }, webEnv);
    expect(res.status, text).toBe(200);
    const found = await lookup(agent.api_key, res.headers.get('x-service-request-id')!);
    expect(await found.json()).toMatchObject({ path: '/v1/scrape', status: 'succeeded', streamed: false, cost_usd: res.headers.get('x-service-cost'), usage: { pages: 1 } });

    const refused = await post('/v1/scrape', agent.api_key, { url: `${inject('websiteUrl')}/no-such-page-${crypto.randomUUID()}`, stealth: false }, webEnv);
    expect(refused.res.status).toBeGreaterThanOrEqual(400);
    const failed = await lookup(agent.api_key, refused.res.headers.get('x-service-request-id')!);
    expect(await failed.json()).toMatchObject({ path: '/v1/scrape', status: 'failed', cost_usd: formatUsd(0), usage: { pages: 0 } });
  });

  it('returns an image generation with its images', async () => {
    const agent = await funded();
    const { res, text } = await post('/v1/images/generations', agent.api_key, { model: 'openai/gpt-image-1-mini', prompt: 'a red square', size: '1024x1024' }, imagesEnv);
    expect(res.status, text).toBe(200);
    const found = await lookup(agent.api_key, res.headers.get('x-service-request-id')!);
    expect(await found.json()).toMatchObject({ path: '/v1/images/generations', model: 'openai/gpt-image-1-mini', status: 'succeeded', cost_usd: res.headers.get('x-service-cost'), usage: { images: 1 } });
  });

  it('returns a crawl job, under the request id of the POST that started it, once it settles', async () => {
    const agent = await funded();
    const { res, text } = await post('/v1/crawl', agent.api_key, { url: `${inject('websiteUrl')}/article`, limit: 1 }, webEnv);
    expect(res.status, text).toBe(202);
    const requestId = res.headers.get('x-service-request-id')!;
    const { id } = JSON.parse(text) as { id: string };
    const job = env.WEB_JOB.get(env.WEB_JOB.idFromName(id));
    await runDurableObjectAlarm(job);
    for (let i = 0; i < 200 && (await job.view(agent.account_id))?.status === 'running'; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const view = (await job.view(agent.account_id))!;
    expect(view.status).toBe('completed');
    const found = await lookup(agent.api_key, requestId);
    expect(await found.json()).toMatchObject({ id: requestId, path: '/v1/crawl', status: 'succeeded', cost_usd: formatUsd(Math.round(view.cost * 1_000_000)), usage: { pages: 1 } });
  });

  it('returns a video job, under the request id of the POST that started it, once it completes', async () => {
    const agent = await funded('2');
    const sent: QueueMessage[] = [];
    const JOBS = { send: async (body: QueueMessage) => void sent.push(body), sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((m) => m.body)) };
    const videosEnv = { ...env, OPENAI_API_KEY: VIDEOS_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('videosUpstreamUrl')}/v1`, JOBS } as unknown as Env;
    const { res, text } = await post('/v1/videos/generations', agent.api_key, { model: 'openai/sora-2', prompt: 'a heron, looked up', duration: 4 }, videosEnv);
    expect(res.status, text).toBe(202);
    const requestId = res.headers.get('x-service-request-id')!;
    const { id } = JSON.parse(text) as { id: string };
    // Mid-render the request is not settled yet: no record.
    expect((await lookup(agent.api_key, requestId)).status).toBe(404);
    for (let i = 0; i < 10 && (await mediaJob(database(env), id))?.status !== 'completed'; i++) await pollVideoJob(videosEnv, id);
    const job = (await mediaJob(database(env), id))!;
    expect(job.status).toBe('completed');
    const found = await lookup(agent.api_key, requestId);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: requestId, path: '/v1/videos/generations', model: 'openai/sora-2', status: 'succeeded', cost_usd: formatUsd(job.actualMicros!), usage: { seconds: 4 } });
  });

  it("is 404 for another account's request and for an unknown id", async () => {
    const owner = await funded();
    const other = await funded();
    const { res } = await chat(owner.api_key, false);
    const requestId = res.headers.get('x-service-request-id')!;
    await expectError(await lookup(other.api_key, requestId), 404, 'not_found', 'invalid_request_error', 'request_id');
    await expectError(await lookup(owner.api_key, 'req_unknown'), 404, 'not_found', 'invalid_request_error', 'request_id');
    expect((await lookup(owner.api_key, requestId)).status).toBe(200);
  });

  it('needs a valid key of the account', async () => {
    const owner = await funded();
    const { res } = await chat(owner.api_key, false);
    const requestId = res.headers.get('x-service-request-id')!;
    expect((await call(`/v1/requests/${requestId}`)).status).toBe(401);
    const forged = `${owner.api_key.slice(0, -4)}zzzz`;
    expect((await lookup(forged, requestId)).status).toBe(401);
  });

  it('finds a request whose charge went through the settlement journal, recorded once however often it is delivered', async () => {
    const agent = await funded();
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    const requestId = `req_${crypto.randomUUID()}`;
    const granted = await stub.authorizeHold({ keyHash, minMicros: 50_000, maxMicros: 50_000, purpose: 'chat:test/model', requestId });
    if (!granted.ok) throw new Error(granted.reason);
    const journal = env.SETTLEMENT_JOURNAL.get(env.SETTLEMENT_JOURNAL.idFromName(`test:${crypto.randomUUID()}`));
    const record = { requestId, path: '/v1/chat/completions', model: 'test/model', provider: 'openai', startedAt: Date.now() - 50, durationMs: 50, streamed: true, usage: { prompt_tokens: 7, completion_tokens: 9 } };
    await journal.record({ accountId: agent.account_id, holdId: granted.holdId, chargeMicros: 1_234, record });
    await journal.record({ accountId: agent.account_id, holdId: granted.holdId, chargeMicros: 1_234, record });
    for (let i = 0; i < 100 && (await journal.pending()).length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const found = await lookup(agent.api_key, requestId);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: requestId, status: 'succeeded', cost_usd: formatUsd(1_234), streamed: true, usage: { prompt_tokens: 7, completion_tokens: 9 } });
    expect((await stub.ledgerEntries(10)).filter((row) => row.kind === 'charge')).toHaveLength(1);
  });

  it('records a released request as failed with no cost; a settlement after the release changes nothing', async () => {
    const agent = await funded();
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    const requestId = `req_${crypto.randomUUID()}`;
    const granted = await stub.authorizeHold({ keyHash, minMicros: 10_000, maxMicros: 10_000, purpose: 'scrape', requestId });
    if (!granted.ok) throw new Error(granted.reason);
    const record = { requestId, path: '/v1/scrape', model: null, provider: null, startedAt: Date.now(), durationMs: 3, streamed: false, usage: { pages: 1 } };
    await stub.apply([{ op: 'release', holdId: granted.holdId, record }]);
    expect(await (await lookup(agent.api_key, requestId)).json()).toMatchObject({ status: 'failed', cost_usd: formatUsd(0) });
    const [late] = (await stub.apply([{ op: 'settle', holdId: granted.holdId, chargeMicros: 2_000, record }])).results;
    expect(late).toMatchObject({ ok: false, reason: 'hold_released' });
    expect(await (await lookup(agent.api_key, requestId)).json()).toMatchObject({ status: 'failed', cost_usd: formatUsd(0), usage: { pages: 1 } });
  });

  it('stores a bounded record whatever a caller sends: long text cut, at most 8 numeric units', async () => {
    const agent = await funded();
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    const requestId = `req_${crypto.randomUUID()}`;
    const granted = await stub.authorizeHold({ keyHash, minMicros: 1_000, maxMicros: 1_000, purpose: 'scrape', requestId });
    if (!granted.ok) throw new Error(granted.reason);
    const usage = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`unit${i}`, i]));
    const record = { requestId, path: '/v1/scrape', model: 'm'.repeat(10_000), provider: null, startedAt: Date.now(), durationMs: 1, streamed: false, usage: { ...usage, text: 'x'.repeat(1_000) as unknown as number } };
    await stub.apply([{ op: 'settle', holdId: granted.holdId, chargeMicros: 500, record }]);
    const body = (await (await lookup(agent.api_key, requestId)).json()) as { model: string; usage: Record<string, number> };
    expect(body.model).toHaveLength(200);
    expect(Object.keys(body.usage)).toHaveLength(8);
    expect(JSON.stringify(body.usage)).not.toContain('xxx');
  });

  it('keeps a record 30 days, then the prune deletes it', async () => {
    const agent = await funded();
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    const ids = [`req_${crypto.randomUUID()}`, `req_${crypto.randomUUID()}`];
    const now = Date.now();
    for (const [i, requestId] of ids.entries()) {
      const granted = await stub.authorizeHold({ keyHash, minMicros: 1_000, maxMicros: 1_000, purpose: 'scrape', requestId });
      if (!granted.ok) throw new Error(granted.reason);
      // Both within 30 days now; at the prune's clock (5 minutes on), the first is past them.
      const startedAt = now - REQUEST_RECORD_RETENTION_MS + (i === 0 ? 60_000 : 600_000);
      await stub.apply([{ op: 'settle', holdId: granted.holdId, chargeMicros: 500, record: { requestId, path: '/v1/scrape', model: null, provider: null, startedAt, durationMs: 1, streamed: false, usage: { pages: 1 } } }]);
    }
    expect((await lookup(agent.api_key, ids[0]!)).status).toBe(200);
    expect(await stub.pruneRequests(now + 300_000)).toBeGreaterThan(0);
    expect((await lookup(agent.api_key, ids[0]!)).status).toBe(404);
    expect((await lookup(agent.api_key, ids[1]!)).status).toBe(200);
    const left = await runInDurableObject(stub, (_, state) => state.storage.sql.exec('SELECT request_id FROM request_records').toArray());
    expect(left.map((row) => row.request_id)).toEqual([ids[1]]);
  });

  it('an insert prunes expired records itself, at most once a minute', async () => {
    const agent = await funded();
    const stub = accountStub(agent.account_id);
    const keyHash = await sha256Hex(agent.api_key);
    const settleExpired = async () => {
      const requestId = `req_${crypto.randomUUID()}`;
      const granted = await stub.authorizeHold({ keyHash, minMicros: 1_000, maxMicros: 1_000, purpose: 'scrape', requestId });
      if (!granted.ok) throw new Error(granted.reason);
      const startedAt = Date.now() - REQUEST_RECORD_RETENTION_MS - 60_000;
      await stub.apply([{ op: 'settle', holdId: granted.holdId, chargeMicros: 500, record: { requestId, path: '/v1/scrape', model: null, provider: null, startedAt, durationMs: 1, streamed: false, usage: { pages: 1 } } }]);
      return requestId;
    };
    // The object's first insert prunes: the record it wrote is already past 30 days.
    expect((await lookup(agent.api_key, await settleExpired())).status).toBe(404);
    // The next one, within the minute, does not: the settle path skips the prune.
    const kept = await settleExpired();
    expect((await lookup(agent.api_key, kept)).status).toBe(200);
    expect(await stub.pruneRequests(Date.now())).toBe(1);
    expect((await lookup(agent.api_key, kept)).status).toBe(404);
  });
});
