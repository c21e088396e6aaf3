import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { consumeQueue } from '../../src/queue/consumer';
import { database } from '../../src/db';
import { insertMediaJob, mediaJob, type NewMediaJob } from '../../src/db/media-jobs';
import { runMediaJob, sweepMediaJobs } from '../../src/products/render/jobs';
import { sweepVideoJobs } from '../../src/products/videos/job';
import type { QueueMessage } from '../../src/queue/messages';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, expectError, register } from './helpers';
import { sha256Hex } from '../../src/accounts/credentials';

/**
 * Image jobs as the queue consumer and the cron sweep run them, inside workerd on real D1, R2 and
 * the account's Durable Object, OpenAI's Images API played on 127.0.0.1. Queues deliver at least
 * once: a repeated message must charge once.
 */

const withImages = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1` } as Env;
const MINUTE = 60_000;

/** A queued job as `POST /v1/images/jobs` leaves it: the hold placed, the row written. */
async function queuedJob(prompt: string, createdAt = Date.now()): Promise<{ job: NewMediaJob; stub: ReturnType<typeof accountStub> }> {
  const agent = await register();
  await adminCredit(agent.account_id, '1');
  const stub = accountStub(agent.account_id);
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(agent.api_key), minMicros: 22_000, maxMicros: 22_000, purpose: 'image-job:test', ttlMs: 3_600_000 });
  if (!hold.ok) throw new Error(hold.reason);
  const job: NewMediaJob = {
    id: `imgjob_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`,
    accountId: agent.account_id,
    kind: 'image',
    model: 'openai/gpt-image-1-mini',
    status: 'queued',
    params: { model: 'openai/gpt-image-1-mini', prompt, n: 2, size: '1024x1024', quality: 'standard', response_format: 'url' },
    base: 'https://gateway.test',
    holdId: hold.holdId,
    predictedMicros: 22_000,
    actualMicros: null,
    keys: null,
    error: null,
    upstream: null,
    createdAt,
    updatedAt: createdAt,
  };
  await insertMediaJob(database(env), job);
  return { job, stub };
}

describe('image jobs', () => {
  it('completes a job once however often its message is delivered: one charge, one listing', async () => {
    const { job, stub } = await queuedJob('two foxes');
    await runMediaJob(withImages, job.id, 1);
    await runMediaJob(withImages, job.id, 2);
    const done = await mediaJob(database(env), job.id);
    // gpt-image-1-mini is token-billed: 3 text tokens at $2/1M and 2 x 1,056 output tokens at $8/1M, plus 5 %.
    expect(done).toMatchObject({ status: 'completed', actualMicros: 17_747 });
    expect(done!.keys).toHaveLength(2);
    for (const key of done!.keys!) expect((await env.MEDIA.head(key))?.httpMetadata?.contentType).toBe('image/png');
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - 17_747, heldMicros: 0 });
    const charges = (await stub.ledgerEntries(20)).filter((row) => row.kind === 'charge');
    expect(charges).toHaveLength(1);
    const listed = await env.DB.prepare('SELECT COUNT(*) AS n FROM generations WHERE account_id = ?').bind(job.accountId).first<{ n: number }>();
    expect(listed?.n).toBe(1);
  });

  it('fails a refused render at once and releases its hold: nothing charged, actual stays null', async () => {
    const { job, stub } = await queuedJob('something [reject]');
    await runMediaJob(withImages, job.id, 1);
    expect(await mediaJob(database(env), job.id)).toMatchObject({ status: 'failed', actualMicros: null, error: expect.stringContaining('rejected') });
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });

  it('lets the queue retry upstream trouble, then fails the job on the last attempt', async () => {
    const unreachable = { ...withImages, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } as Env;
    const { job, stub } = await queuedJob('a fox');
    await expect(runMediaJob(unreachable, job.id, 1)).rejects.toThrow();
    expect((await mediaJob(database(env), job.id))?.status).toBe('processing');
    await runMediaJob(unreachable, job.id, 4);
    expect((await mediaJob(database(env), job.id))?.status).toBe('failed');
    expect((await stub.snapshot()).heldMicros).toBe(0);
  });

  it('rescues a job whose message was lost, and fails one past its deadline', async () => {
    const now = Date.now();
    const lost = await queuedJob('a lost owl', now - 3 * MINUTE);
    const late = await queuedJob('a late owl', now - 31 * MINUTE);
    const sent: unknown[] = [];
    const recording = { ...env, JOBS: { sendBatch: async (batch: { body: unknown }[]) => void sent.push(...batch.map((m) => m.body)) } } as unknown as Env;
    const outcome = await sweepMediaJobs(recording, now);
    expect(outcome).toMatchObject({ resent: expect.any(Number), failed: expect.any(Number) });
    expect(sent).toContainEqual({ kind: 'image.render', jobId: lost.job.id });
    expect(sent).not.toContainEqual({ kind: 'image.render', jobId: late.job.id });
    expect(await mediaJob(database(env), late.job.id)).toMatchObject({ status: 'failed', error: 'The job did not finish in time.' });
    expect((await late.stub.snapshot()).heldMicros).toBe(0);
    // The rescued message runs the job to the end.
    await runMediaJob(withImages, lost.job.id, 1);
    expect((await mediaJob(database(env), lost.job.id))?.status).toBe('completed');
  });
});

/** A row as a sweep sees it; no account or hold behind it (a sweep that only re-sends touches neither). */
async function staleRow(kind: 'image' | 'video', at: number): Promise<string> {
  const id = `${kind === 'image' ? 'imgjob' : 'vidjob'}_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
  await insertMediaJob(database(env), {
    id,
    accountId: `acct_${crypto.randomUUID()}`,
    kind,
    model: 'test/model',
    status: 'queued',
    params: { prompt: 'a stale job' },
    base: 'https://gateway.test',
    holdId: `hold_${crypto.randomUUID()}`,
    predictedMicros: 1_000,
    actualMicros: null,
    keys: null,
    error: null,
    upstream: null,
    createdAt: at,
    updatedAt: at,
  });
  return id;
}

describe('sweeps by kind', () => {
  it.each([
    ['image', 'video', sweepMediaJobs, 'image.render'],
    ['video', 'image', sweepVideoJobs, 'video.poll'],
  ] as const)('rescues a lost %s job behind 100 older stale %s jobs: each kind reads its own batch', async (kind, other, sweep, message) => {
    const now = Date.now();
    const filler: string[] = [];
    for (let i = 0; i < 100; i++) filler.push(await staleRow(other, now - 10 * MINUTE + i));
    const lost = await staleRow(kind, now - 3 * MINUTE);
    const sent: QueueMessage[] = [];
    const recording = { ...env, JOBS: { sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((m) => m.body)) } } as unknown as Env;
    try {
      await sweep(recording, now);
      expect(sent).toContainEqual({ kind: message, jobId: lost });
      // The other kind's rows are not this sweep's: none is re-sent as this kind's message.
      expect(sent.filter((body) => 'jobId' in body && filler.includes(body.jobId))).toEqual([]);
    } finally {
      await env.DB.prepare(`DELETE FROM media_jobs WHERE id IN (SELECT value FROM json_each(?))`).bind(JSON.stringify([...filler, lost])).run();
    }
  });
});

/**
 * OpenAI's images are synchronous: the answer is the render, with no id to ask again by. Through
 * the API as a client meets it (POST /v1/images/jobs, the queue delivered by the test, GET the
 * job), against the Images API simulator, which counts what it was sent.
 */
describe('image jobs on the OpenAI rail, through the API', () => {
  const app = createApp();
  const imagesUrl = inject('imagesUpstreamUrl');

  /** The Worker's env with the upstream at `base`, a render time of `timeoutMs`, the queue recorded. */
  function gatewayEnv(sent: QueueMessage[], options: { base?: string; timeoutMs?: number } = {}): Env {
    const JOBS = { send: async (body: QueueMessage) => void sent.push(body), sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((m) => m.body)) };
    return { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: options.base ?? `${imagesUrl}/v1`, IMAGE_RENDER_TIMEOUT_MS: String(options.timeoutMs ?? 60_000), JOBS } as unknown as Env;
  }

  /** Delivery number `attempt` of `body` to the queue consumer: acked, or handed back for a retry. */
  async function deliver(consumer: Env, body: QueueMessage, attempt: number): Promise<'acked' | 'retried'> {
    let outcome: 'acked' | 'retried' | undefined;
    const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: attempt, body, ack: () => void (outcome = 'acked'), retry: () => void (outcome = 'retried') };
    await consumeQueue({ queue: 'ai-gateway-jobs', messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<QueueMessage>, consumer);
    return outcome!;
  }

  /** How many renders with `prompt` the simulator was sent. */
  async function submissions(prompt: string): Promise<number> {
    const seen = (await (await fetch(`${imagesUrl}/__seen`)).json()) as { prompt: unknown }[];
    return seen.filter((request) => request.prompt === prompt).length;
  }

  async function submitJob(prompt: string, gateway: Env) {
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    const res = await app.fetch(post('/v1/images/jobs', agent.api_key, { model: 'openai/gpt-image-1-mini', prompt }), gateway, createExecutionContext());
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const read = async () => (await (await app.fetch(new Request(`https://gateway.test/v1/images/jobs/${id}`, { headers: { Authorization: `Bearer ${agent.api_key}` } }), env, createExecutionContext())).json()) as JobView;
    return { id, read, stub: accountStub(agent.account_id), apiKey: agent.api_key };
  }

  interface JobView {
    status: string;
    urls?: string[];
    actual_usd: number | null;
    error?: string;
    error_code?: string;
  }

  function post(path: string, apiKey: string, body: unknown): Request {
    return new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
  }

  const charges = async (stub: ReturnType<typeof accountStub>) => (await stub.ledgerEntries(50)).filter((row) => row.kind === 'charge');

  it.each([
    ['answers after the render time', '[slow]', 'did not answer within 1 s'],
    ['drops the connection mid-request', '[reset]', 'dropped the connection'],
  ])('fails a render whose provider %s, sent once and never again: nothing charged, error_code provider_error', async (_, tag, message) => {
    const sent: QueueMessage[] = [];
    const gateway = gatewayEnv(sent, { timeoutMs: 1_000 });
    const prompt = `a heron ${tag} ${crypto.randomUUID()}`;
    const job = await submitJob(prompt, gateway);
    // The queue would deliver again on a retry; the render may have reached OpenAI, so it is not retried.
    expect(await deliver(gateway, sent[0]!, 1)).toBe('acked');
    expect(await deliver(gateway, sent[0]!, 2)).toBe('acked');
    expect(await submissions(prompt)).toBe(1);
    expect(await job.read()).toMatchObject({ status: 'failed', actual_usd: null, error_code: 'provider_error', error: expect.stringContaining(message) });
    expect((await job.read()).error).toContain('not sent again');
    expect(await job.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });

  it('answers a sync render past its render time 502, sent once, nothing charged', async () => {
    const sent: QueueMessage[] = [];
    const gateway = gatewayEnv(sent, { timeoutMs: 1_000 });
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    const prompt = `a sync heron [slow] ${crypto.randomUUID()}`;
    const ctx = createExecutionContext();
    const res = await app.fetch(post('/v1/images/generations', agent.api_key, { model: 'openai/gpt-image-1-mini', prompt }), gateway, ctx);
    await waitOnExecutionContext(ctx);
    await expectError(res, 502, 'provider_error', 'api_error');
    // Its backstop, delivered when due, finds the job failed and sends nothing.
    expect(await deliver(gateway, sent[0]!, 1)).toBe('acked');
    expect(await submissions(prompt)).toBe(1);
    expect(await accountStub(agent.account_id).snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });

  it('answers a sync render the provider failed (500) 503 with nothing charged, and the client\'s retry renders it with one charge', async () => {
    const gateway = gatewayEnv([]);
    const agent = await register();
    await adminCredit(agent.account_id, '1');
    const body = { model: 'openai/gpt-image-1-mini', prompt: `a sync lighthouse [500-once] ${crypto.randomUUID()}` };
    await expectError(await app.fetch(post('/v1/images/generations', agent.api_key, body), gateway, createExecutionContext()), 503, 'provider_unavailable', 'api_error');
    expect(await accountStub(agent.account_id).snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    const retried = await app.fetch(post('/v1/images/generations', agent.api_key, body), gateway, createExecutionContext());
    expect(retried.status).toBe(200);
    expect(await charges(accountStub(agent.account_id))).toHaveLength(1);
  });

  it('retries a render the provider never received (connection refused), then completes it with one charge', async () => {
    const sent: QueueMessage[] = [];
    const prompt = `a refused heron ${crypto.randomUUID()}`;
    const job = await submitJob(prompt, gatewayEnv(sent));
    expect(await deliver(gatewayEnv([], { base: 'http://127.0.0.1:9/v1' }), sent[0]!, 1)).toBe('retried');
    expect(await job.read()).toMatchObject({ status: 'processing' });
    expect(await deliver(gatewayEnv([]), sent[0]!, 2)).toBe('acked');
    expect(await job.read()).toMatchObject({ status: 'completed', actual_usd: expect.any(Number) });
    expect(await submissions(prompt)).toBe(1);
    expect(await charges(job.stub)).toHaveLength(1);
  });

  it('fails a render the provider refuses (content policy, 400) at once with its message: one submission, error_code invalid_request', async () => {
    const sent: QueueMessage[] = [];
    const gateway = gatewayEnv(sent);
    const prompt = `something [reject] ${crypto.randomUUID()}`;
    const job = await submitJob(prompt, gateway);
    expect(await deliver(gateway, sent[0]!, 1)).toBe('acked');
    expect(await submissions(prompt)).toBe(1);
    const failed = await job.read();
    expect(failed).toMatchObject({ status: 'failed', actual_usd: null, error_code: 'invalid_request', error: expect.stringContaining('Your request was rejected as a result of our safety system.') });
    expect(failed.error).not.toMatch(/\n\s+at /);
    expect(await job.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });

  it.each(['[500-once]', '[429-once]'])('retries a %s answer from the provider and completes with one charge', async (tag) => {
    const sent: QueueMessage[] = [];
    const gateway = gatewayEnv(sent);
    const prompt = `a lighthouse ${tag} ${crypto.randomUUID()}`;
    const job = await submitJob(prompt, gateway);
    expect(await deliver(gateway, sent[0]!, 1)).toBe('retried');
    expect(await deliver(gateway, sent[0]!, 2)).toBe('acked');
    const done = await job.read();
    expect(done).toMatchObject({ status: 'completed', urls: [expect.any(String)] });
    // One refused by the provider, one rendered: one charge, of the rendered one.
    expect(await submissions(prompt)).toBe(2);
    expect(await charges(job.stub)).toHaveLength(1);
    expect(await job.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - Math.round(done.actual_usd! * 1e6), heldMicros: 0 });
  });
});
