import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { database } from '../../src/db';
import { insertMediaJob, mediaJob, type NewMediaJob } from '../../src/db/media-jobs';
import { runMediaJob, sweepMediaJobs } from '../../src/jobs/render-jobs';
import { sweepVideoJobs } from '../../src/jobs/video-jobs';
import type { QueueMessage } from '../../src/queue/messages';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, register } from './helpers';
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
