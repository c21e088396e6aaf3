import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { database } from '../../src/db';
import { mediaJob } from '../../src/db/media-jobs';
import { consumeQueue } from '../../src/queue/consumer';
import type { QueueMessage } from '../../src/queue/messages';
import { RENDER_CLAIM_LEASE_MS } from '../../src/products/render/render';
import { sweepMediaJobs } from '../../src/products/render/jobs';
import { BACKSTOP_DELAY_SECONDS } from '../../src/products/render/sync';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, register } from './helpers';

/**
 * Every render is paid once (issue 20, item 6), through the app as a client calls it and the queue
 * consumer as the platform delivers to it, on real D1, R2 and the account's Durable Object, with
 * OpenAI's Images API played on 127.0.0.1 (which tells what it saw). Queues deliver at least once,
 * possibly twice at the same instant; a Worker can be cut mid-render (a client that left, then
 * waitUntil's 30 s): the upstream must see one render per job, the account one charge.
 */

const imagesUrl = inject('imagesUpstreamUrl');
const app = createApp();
const MODEL = 'openai/gpt-image-1-mini';

interface Sent {
  body: QueueMessage;
  delaySeconds?: number;
}

/** The Worker's env with the images upstream at `base` and the queue recorded (the test delivers). */
function gatewayEnv(sent: Sent[], base = `${imagesUrl}/v1`): Env {
  const JOBS = {
    send: async (body: QueueMessage, options?: { delaySeconds?: number }) => void sent.push({ body, delaySeconds: options?.delaySeconds }),
    sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((message) => ({ body: message.body }))),
  };
  return { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: base, JOBS } as unknown as Env;
}

/** One delivery of `body` to the queue consumer, at `now`; says whether it was acked or retried. */
async function deliver(consumer: Env, body: QueueMessage, now = Date.now()): Promise<'acked' | 'retried'> {
  let outcome: 'acked' | 'retried' | undefined;
  const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body, ack: () => void (outcome = 'acked'), retry: () => void (outcome = 'retried') };
  const batch = { queue: 'ai-gateway-jobs', messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<QueueMessage>;
  await consumeQueue(batch, consumer, undefined, () => now);
  return outcome!;
}

/** What the images upstream received with this prompt: `/v1/...` renders and `/hang/...` ones. */
async function seenRenders(prompt: string): Promise<{ answered: number; hung: number }> {
  const seen = (await (await fetch(`${imagesUrl}/__seen`)).json()) as { path: string; prompt: unknown }[];
  const mine = seen.filter((request) => request.prompt === prompt);
  return { answered: mine.filter((r) => r.path.startsWith('/v1/')).length, hung: mine.filter((r) => r.path.startsWith('/hang/')).length };
}

async function fundedAgent() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '1')).status).toBe(200);
  return { ...agent, stub: accountStub(agent.account_id) };
}

function post(path: string, apiKey: string, body: unknown, signal?: AbortSignal): Request {
  return new Request(`https://gateway.test${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
}

async function charges(stub: ReturnType<typeof accountStub>) {
  return (await stub.ledgerEntries(50)).filter((row) => row.kind === 'charge');
}

async function listed(apiKey: string) {
  const res = await app.fetch(new Request('https://gateway.test/v1/generations', { headers: { Authorization: `Bearer ${apiKey}` } }), env, createExecutionContext());
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { id: string; urls: string[] }[] }).data;
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200 && !(await condition()); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(await condition()).toBe(true);
}

describe('an image job delivered twice at the same instant', () => {
  it('renders once and charges once: the second delivery finds the render claimed', async () => {
    const agent = await fundedAgent();
    const sent: Sent[] = [];
    const gateway = gatewayEnv(sent);
    const prompt = `twin delivery ${crypto.randomUUID()}`;
    const res = await app.fetch(post('/v1/images/jobs', agent.api_key, { model: MODEL, prompt, size: '1024x1024' }), gateway, createExecutionContext());
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(sent).toEqual([{ body: { kind: 'image.render', jobId: id }, delaySeconds: undefined }]);

    const outcomes = await Promise.all([deliver(gateway, sent[0]!.body), deliver(gateway, sent[0]!.body)]);
    expect(outcomes).toEqual(['acked', 'acked']);
    expect(await seenRenders(prompt)).toEqual({ answered: 1, hung: 0 });
    expect(await charges(agent.stub)).toHaveLength(1);
    const job = await mediaJob(database(env), id);
    expect(job).toMatchObject({ status: 'completed' });
    expect(await agent.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - job!.actualMicros!, heldMicros: 0 });
    expect(await listed(agent.api_key)).toHaveLength(1);

    // A third delivery (the sweep's, or the queue's redelivery) of the finished job does nothing.
    expect(await deliver(gateway, sent[0]!.body, Date.now() + RENDER_CLAIM_LEASE_MS + 1_000)).toBe('acked');
    expect(await seenRenders(prompt)).toEqual({ answered: 1, hung: 0 });
    expect(await charges(agent.stub)).toHaveLength(1);
  });
});

describe('a sync image render that outlives its client', () => {
  it('finishes when the client disconnects mid-render: hosted, listed, charged once; its backstop then does nothing', async () => {
    const agent = await fundedAgent();
    const sent: Sent[] = [];
    const gateway = gatewayEnv(sent);
    const prompt = `[slow] a client that leaves ${crypto.randomUUID()}`;
    const client = new AbortController();
    const ctx = createExecutionContext();
    const pending = app.fetch(post('/v1/images/generations', agent.api_key, { model: MODEL, prompt, size: '1024x1024' }, client.signal), gateway, ctx);
    await until(async () => (await seenRenders(prompt)).answered === 1);
    client.abort(); // the client leaves while the upstream renders (it answers after 1.5 s)
    void Promise.resolve(pending).catch(() => {});
    await waitOnExecutionContext(ctx);

    const generations = await listed(agent.api_key);
    expect(generations).toHaveLength(1);
    const [key] = generations[0]!.urls.map((url) => new URL(url).pathname.replace(/^\/files\//, ''));
    expect((await env.MEDIA.head(key!))?.httpMetadata?.contentType).toBe('image/png');
    expect(await charges(agent.stub)).toHaveLength(1);
    expect((await agent.stub.snapshot()).heldMicros).toBe(0);

    // The backstop was queued past the claim's lease; delivered then, it finds the render done.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ body: { kind: 'image.render' }, delaySeconds: BACKSTOP_DELAY_SECONDS });
    expect(BACKSTOP_DELAY_SECONDS * 1000).toBeGreaterThan(RENDER_CLAIM_LEASE_MS);
    expect(await deliver(gateway, sent[0]!.body, Date.now() + BACKSTOP_DELAY_SECONDS * 1000)).toBe('acked');
    expect(await seenRenders(prompt)).toEqual({ answered: 1, hung: 0 });
    expect(await charges(agent.stub)).toHaveLength(1);
    expect(await listed(agent.api_key)).toHaveLength(1);
  });

  it('is finished by its backstop when its Worker is cut mid-render: hosted, listed, charged once', async () => {
    const agent = await fundedAgent();
    const sent: Sent[] = [];
    // The inline render's upstream never answers: its Worker is cut before the render ends.
    const cut = gatewayEnv(sent, `${imagesUrl}/hang/v1`);
    const prompt = `a render whose Worker is cut ${crypto.randomUUID()}`;
    const inline = Promise.resolve(app.fetch(post('/v1/images/generations', agent.api_key, { model: MODEL, prompt, size: '1024x1024' }), cut, createExecutionContext()));
    await until(async () => (await seenRenders(prompt)).hung === 1);
    expect(sent).toHaveLength(1);
    const backstop = sent[0]!;
    expect(backstop).toMatchObject({ body: { kind: 'image.render' }, delaySeconds: BACKSTOP_DELAY_SECONDS });
    const jobId = (backstop.body as { jobId: string }).jobId;
    expect(await agent.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: expect.any(Number) });

    // Had the backstop message been lost, the cron sweep would send another once the claim lapsed.
    const swept: Sent[] = [];
    await sweepMediaJobs(gatewayEnv(swept), Date.now());
    expect(swept.map((m) => m.body)).not.toContainEqual(backstop.body);
    await sweepMediaJobs(gatewayEnv(swept), Date.now() + RENDER_CLAIM_LEASE_MS + 1_000);
    expect(swept.map((m) => m.body)).toContainEqual(backstop.body);

    const consumer = gatewayEnv([]);
    // Delivered early (a duplicate, or the sweep) while the inline claim is alive: nothing renders.
    expect(await deliver(consumer, backstop.body)).toBe('acked');
    expect(await seenRenders(prompt)).toEqual({ answered: 0, hung: 1 });

    // Delivered when it is due, past the claim's lease: it takes the render over and finishes it.
    expect(await deliver(consumer, backstop.body, Date.now() + BACKSTOP_DELAY_SECONDS * 1000)).toBe('acked');
    expect(await seenRenders(prompt)).toEqual({ answered: 1, hung: 1 });
    const job = await mediaJob(database(env), jobId);
    expect(job).toMatchObject({ status: 'completed', actualMicros: expect.any(Number) });
    const generations = await listed(agent.api_key);
    expect(generations.map((g) => g.id)).toEqual([jobId.replace(/^imgjob_/, 'gen_')]);
    expect(generations[0]!.urls).toHaveLength(1);
    expect(await charges(agent.stub)).toHaveLength(1);
    expect(await agent.stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000 - job!.actualMicros!, heldMicros: 0 });

    // The cut render's upstream finally fails: its late failure neither fails the job nor frees money.
    await fetch(`${imagesUrl}/__hung/release`, { method: 'POST' });
    expect((await inline).status).toBeGreaterThanOrEqual(500);
    expect(await mediaJob(database(env), jobId)).toMatchObject({ status: 'completed', actualMicros: job!.actualMicros });
    expect(await charges(agent.stub)).toHaveLength(1);
    expect((await agent.stub.ledgerEntries(50)).filter((row) => row.kind === 'release' && row.note !== 'settled')).toEqual([]);
  });
});
