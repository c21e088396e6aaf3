import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { database } from '../../src/db';
import { insertMediaJob, mediaJob, type NewMediaJob } from '../../src/db/media-jobs';
import { handle } from '../../src/queue/consumer';
import type { QueueMessage } from '../../src/queue/messages';
import { pollVideoJob, sweepVideoJobs } from '../../src/products/videos/job';
import { planVideo } from '../../src/products/videos/plan';
import { submitVideo } from '../../src/products/videos/rail';
import { VideoGenerationRequest } from '../../src/products/videos/request';
import type { StoredVideoHandle } from '../../src/providers/renders';
import { FAL_UPSTREAM_KEY, REPLICATE_UPSTREAM_KEY, VIDEOS_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, expectError, register } from './helpers';

/**
 * Video jobs as the queue consumer and the cron sweep run them, inside workerd on real D1, R2 and
 * the account's Durable Object, OpenAI's Videos API played on 127.0.0.1 (it reports `queued`, then
 * `in_progress`, then `completed` over three polls). Queues deliver at least once, and the sweep
 * re-sends polls it believes lost: a poll delivered twice, even at the same time, must copy,
 * charge and list once, and must not fork the polling into two chains.
 */

const MINUTE = 60_000;

/** The env of the consumer, with the queue recorded instead of delivered (the test delivers). */
function consumerEnv(): { env: Env; sent: QueueMessage[] } {
  const sent: QueueMessage[] = [];
  const JOBS = {
    send: async (body: QueueMessage) => void sent.push(body),
    sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((message) => message.body)),
  };
  return { env: { ...env, OPENAI_API_KEY: VIDEOS_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('videosUpstreamUrl')}/v1`, JOBS } as unknown as Env, sent };
}

/** A job as `POST /v1/videos/generations` leaves it: held, sent upstream, recorded. */
async function submittedJob(consumer: Env, prompt: string, createdAt = Date.now(), upstream?: StoredVideoHandle) {
  const agent = await register();
  await adminCredit(agent.account_id, '2');
  const stub = accountStub(agent.account_id);
  const plan = planVideo(VideoGenerationRequest.parse({ model: 'openai/sora-2', prompt, duration: 4 }), consumer);
  const hold = await stub.authorizeHold({ keyHash: await sha256Hex(agent.api_key), minMicros: plan.predictedMicros, maxMicros: plan.predictedMicros, purpose: 'video:test', ttlMs: 3_600_000 });
  if (!hold.ok) throw new Error(hold.reason);
  const job: NewMediaJob = {
    id: `vidjob_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`,
    accountId: agent.account_id,
    kind: 'video',
    model: plan.model.id,
    status: 'queued',
    params: plan.request,
    base: 'https://gateway.test',
    holdId: hold.holdId,
    predictedMicros: plan.predictedMicros,
    actualMicros: null,
    keys: null,
    error: null,
    upstream: upstream ?? (await submitVideo(plan, undefined, consumer)),
    createdAt,
    updatedAt: createdAt,
  };
  await insertMediaJob(database(env), job);
  return { job, stub };
}

const status = async (id: string) => (await mediaJob(database(env), id))?.status;

describe('video jobs', () => {
  it('copies, charges and lists once when every poll is delivered twice at the same time, and never forks the polling', async () => {
    const consumer = consumerEnv();
    const { job, stub } = await submittedJob(consumer.env, 'a heron, twice');
    const statuses: string[] = [];
    for (let round = 0; round < 5 && (await status(job.id)) !== 'completed'; round++) {
      const before = consumer.sent.length;
      await Promise.all([pollVideoJob(consumer.env, job.id), pollVideoJob(consumer.env, job.id)]);
      statuses.push((await status(job.id))!);
      // Of the two deliveries, at most one goes on to queue the next poll.
      expect(consumer.sent.length - before).toBeLessThanOrEqual(1);
    }
    expect(statuses.at(-1)).toBe('completed');
    const done = (await mediaJob(database(env), job.id))!;
    expect(done.keys).toHaveLength(1);
    expect(done.actualMicros).toBe(job.predictedMicros);
    expect((await env.MEDIA.head(done.keys![0]!))?.size).toBe(2 * 1024 * 1024);
    const stored = await env.MEDIA.list({ prefix: `outputs/${job.accountId}/` });
    expect(stored.objects.map((object) => object.key)).toEqual(done.keys);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 2_000_000 - job.predictedMicros, heldMicros: 0 });
    expect((await stub.ledgerEntries(20)).filter((row) => row.kind === 'charge')).toHaveLength(1);
    const listed = await env.DB.prepare('SELECT COUNT(*) AS n FROM generations WHERE account_id = ?').bind(job.accountId).first<{ n: number }>();
    expect(listed?.n).toBe(1);

    // A late duplicate of the last poll changes nothing.
    await pollVideoJob(consumer.env, job.id);
    expect(await mediaJob(database(env), job.id)).toMatchObject({ status: 'completed', keys: done.keys, actualMicros: done.actualMicros });
  });

  it('completes a job whose poll message was lost through the sweep, and fails one past its deadline, free', async () => {
    const consumer = consumerEnv();
    const now = Date.now();
    const lost = await submittedJob(consumer.env, 'a lost kite', now - 3 * MINUTE);
    const late = await submittedJob(consumer.env, 'a late kite', now - 61 * MINUTE);
    await sweepVideoJobs(consumer.env, now);
    expect(consumer.sent).toContainEqual({ kind: 'video.poll', jobId: lost.job.id });
    expect(consumer.sent).not.toContainEqual({ kind: 'video.poll', jobId: late.job.id });
    expect(await mediaJob(database(env), late.job.id)).toMatchObject({ status: 'failed', actualMicros: null, error: expect.stringContaining('in time') });
    expect(await late.stub.snapshot()).toMatchObject({ balanceMicros: 2_000_000, heldMicros: 0 });

    // The rescued poll starts a chain that runs the job to the end.
    for (let i = 0; i < 5 && (await status(lost.job.id)) !== 'completed'; i++) await pollVideoJob(consumer.env, lost.job.id);
    expect(await mediaJob(database(env), lost.job.id)).toMatchObject({ status: 'completed', actualMicros: lost.job.predictedMicros });
    expect((await lost.stub.snapshot()).heldMicros).toBe(0);
  });

  it.each([
    ['names no provider of this gateway', { provider: 'bogus', id: 'job_1' }, 'names no provider'],
    ["lacks the fields its provider's adapter stored (fal without its status URLs)", { provider: 'fal', id: 'req_1' }, 'could not be read'],
  ])('fails a job whose stored upstream handle %s at the first poll, free, instead of polling another API or retrying', async (_, stored, message) => {
    const consumer = consumerEnv();
    const jobEnv = { ...consumer.env, FAL_API_KEY: 'fal-unused' } as Env;
    const handle: StoredVideoHandle = JSON.parse(JSON.stringify(stored));
    const { job, stub } = await submittedJob(jobEnv, 'a kite with a strange handle', Date.now(), handle);
    await pollVideoJob(jobEnv, job.id);
    expect(await mediaJob(database(env), job.id)).toMatchObject({ status: 'failed', actualMicros: null, error: expect.stringContaining(message) });
    expect(consumer.sent).toEqual([]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 2_000_000, heldMicros: 0 });
  });

  it.each([
    ['sends its headers and 256 KiB of the file, then nothing', 'a heron [stall]'],
    ['never answers the download', 'a heron [hang]'],
  ])('gives up a download whose provider %s within the idle bound, stores and charges nothing, and leaves the job for the retry', async (_, prompt) => {
    const consumer = consumerEnv();
    const bounded = { ...consumer.env, UPSTREAM_IDLE_TIMEOUT_MS: '300' } as Env;
    const { job, stub } = await submittedJob(bounded, prompt);
    await pollVideoJob(bounded, job.id);
    await pollVideoJob(bounded, job.id);
    const started = Date.now();
    await expect(pollVideoJob(bounded, job.id)).rejects.toThrow('The provider sent nothing for 300 ms.');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await status(job.id)).toBe('processing');
    expect((await env.MEDIA.list({ prefix: `outputs/${job.accountId}/` })).objects).toEqual([]);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 2_000_000, heldMicros: job.predictedMicros });
  }, 15_000);
});

describe('video inputs through POST /v1/videos/generations', () => {
  const app = createApp();
  const videosUrl = inject('videosUpstreamUrl');

  async function post(body: Record<string, unknown>): Promise<Response> {
    const agent = await register();
    await adminCredit(agent.account_id, '5');
    const { env: consumer } = consumerEnv();
    const req = new Request('https://gateway.test/v1/videos/generations', { method: 'POST', headers: { Authorization: `Bearer ${agent.api_key}` }, body: JSON.stringify(body) });
    return app.fetch(req, consumer, createExecutionContext());
  }

  /** The size OpenAI's Videos API (played here) was asked for, read back from the video it made. */
  async function upstreamSize(jobId: string): Promise<string | undefined> {
    const upstream = (await mediaJob(database(env), jobId))?.upstream as { id?: string } | null;
    const video = await fetch(`${videosUrl}/v1/videos/${upstream?.id}`, { headers: { Authorization: `Bearer ${VIDEOS_UPSTREAM_KEY}` } });
    return ((await video.json()) as { size?: string }).size;
  }

  it.each([
    ['16:9', '1280x720'],
    ['9:16', '720x1280'],
  ])('renders sora-2 at %s as the documented size %s', async (ratio, size) => {
    const res = await post({ model: 'openai/sora-2', prompt: 'a lantern in the rain', duration: 4, aspect_ratio: ratio });
    expect(res.status).toBe(202);
    expect(await upstreamSize(((await res.json()) as { id: string }).id)).toBe(size);
  });

  it.each([
    [{ aspect_ratio: '1:1' }, 'aspect_ratio'],
    [{ aspect_ratio: '4:3' }, 'aspect_ratio'],
    [{ seed: 42 }, 'seed'],
    [{ end_image_url: 'https://example.com/last.png' }, 'end_image_url'],
    [{ image_urls: ['https://example.com/a.png', 'https://example.com/b.png'] }, 'image_urls'],
    [{ video_url: 'https://example.com/clip.mp4' }, 'video_url'],
    [{ audio_urls: ['https://example.com/voice.mp3'] }, 'audio_urls'],
  ])('refuses %o on sora-2 with 400 naming the input it does not take', async (extra, param) => {
    await expectError(await post({ model: 'openai/sora-2', prompt: 'a lantern in the rain', duration: 4, ...extra }), 400, 'invalid_request', 'invalid_request_error', param);
  });
});

describe('video image inputs on fal through POST /v1/videos/generations', () => {
  const app = createApp();
  // fal configured but unreachable: every case here is answered before anything is sent upstream.
  const falEnv = { ...env, FAL_API_KEY: 'fal-unused', FAL_BASE_URL: 'http://127.0.0.1:9' } as Env;

  async function fundedKey(): Promise<string> {
    const agent = await register();
    await adminCredit(agent.account_id, '5');
    return agent.api_key;
  }

  async function call(apiKey: string, path: string, body: Record<string, unknown>): Promise<Response> {
    const req = new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
    return app.fetch(req, falEnv, createExecutionContext());
  }

  it.each([
    [{ model: 'google/veo-3.1', end_image_url: 'https://example.com/last.png' }, 'end_image_url'],
    [{ model: 'google/veo-3.1', image_url: 'https://example.com/a.png', image_urls: ['https://example.com/b.png'] }, 'image_url'],
    [{ model: 'google/veo-3.1', image_urls: ['https://example.com/a.png', 'https://example.com/b.png', 'https://example.com/c.png', 'https://example.com/d.png'] }, 'image_urls'],
    [{ model: 'google/veo-3.1', image_urls: ['https://example.com/a.png'], seed: 7 }, 'seed'],
    [{ model: 'google/veo-3.1', image_urls: ['https://example.com/a.png'], end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'google/veo-3.1', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png', seed: 7 }, 'seed'],
    [{ model: 'google/veo-3.1-fast', image_urls: ['https://example.com/a.png', 'https://example.com/b.png'] }, 'image_urls'],
    [{ model: 'google/veo-3', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'google/veo-3', image_url: 'https://example.com/a.png', seed: 7 }, 'seed'],
    [{ model: 'kuaishou/kling-2.1-master', image_url: 'https://example.com/a.png', aspect_ratio: '16:9' }, 'aspect_ratio'],
    [{ model: 'kuaishou/kling-2.1-master', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'luma/ray-2', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    [{ model: 'kuaishou/kling-2.1-standard' }, 'image_url'],
    [{ model: 'kuaishou/kling-2.5-turbo-standard', aspect_ratio: '16:9' }, 'image_url'],
  ])('refuses %o with 400 naming the input no endpoint of the model takes', async (body, param) => {
    await expectError(await call(await fundedKey(), '/v1/videos/generations', { prompt: 'a lantern', ...body }), 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('checks a gateway upload given as the last frame or a reference image, before anything is held or sent, and the quote checks it too', async () => {
    const apiKey = await fundedKey();
    const reserved = await call(apiKey, '/v1/uploads', { content_type: 'image/png', content_length: 100 });
    expect(reserved.status).toBe(200);
    const upload = ((await reserved.json()) as { public_url: string }).public_url;
    const first = 'https://example.com/first.png';
    for (const [body, param] of [
      [{ image_url: first, end_image_url: upload }, 'end_image_url'],
      [{ image_urls: [first, upload] }, 'image_urls'],
    ] as const) {
      const video = { model: 'google/veo-3.1', prompt: 'a lantern', duration: 4, ...body };
      // Refused for the upload itself (not PUT yet), not for the input: the model takes it.
      const submitted = await expectError(await call(apiKey, '/v1/videos/generations', video), 400, 'invalid_request', 'invalid_request_error', param);
      expect(submitted.error.message).toContain(`The upload ${upload} has not been uploaded yet`);
      const quoted = await expectError(await call(apiKey, '/v1/quote', { path: '/v1/videos/generations', body: video }), 400, 'invalid_request', 'invalid_request_error', param);
      expect(quoted.error.message).toContain(`The upload ${upload} has not been uploaded yet`);
    }
  });
});

describe('video jobs on Replicate, through the API', () => {
  const app = createApp();
  const replicateUrl = inject('replicateUpstreamUrl');

  it('fails a prediction Replicate reports failed, with its error, at the poll that reads the report: one submission, hold released', async () => {
    const sent: QueueMessage[] = [];
    const JOBS = { send: async (body: QueueMessage) => void sent.push(body), sendBatch: async (batch: { body: QueueMessage }[]) => void sent.push(...batch.map((m) => m.body)) };
    // Replicate the only video provider, as an operator without fal or OpenAI has it.
    const gateway = { ...env, REPLICATE_API_KEY: REPLICATE_UPSTREAM_KEY, REPLICATE_BASE_URL: `${replicateUrl}/v1`, OPENAI_API_KEY: '', FAL_API_KEY: '', JOBS } as unknown as Env;
    const agent = await register();
    await adminCredit(agent.account_id, '5');
    const prompt = `a refused heron [fail] ${crypto.randomUUID()}`;
    const headers = { Authorization: `Bearer ${agent.api_key}` };
    const res = await app.fetch(new Request('https://gateway.test/v1/videos/generations', { method: 'POST', headers, body: JSON.stringify({ model: 'kuaishou/kling-2.1-master', prompt, duration: 5 }) }), gateway, createExecutionContext());
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect((await accountStub(agent.account_id).snapshot()).heldMicros).toBeGreaterThan(0);

    // The queue, delivered by the test: each poll queues the next until the job ends.
    for (let delivered = 0; delivered < sent.length && delivered < 10; delivered++) await handle(gateway, sent[delivered]!, 1, Date.now());
    const job = await mediaJob(database(env), id);
    const recorded = (await (await fetch(`${replicateUrl}/__recorded`)).json()) as { method: string; path: string; body: unknown; receivedAt: number }[];
    const submissions = recorded.filter((request) => request.method === 'POST' && JSON.stringify(request.body).includes(JSON.stringify(prompt)));
    expect(submissions).toHaveLength(1);
    const prediction = (job!.upstream as { id?: string } | null)?.id;
    const report = recorded.filter((request) => request.method === 'GET' && request.path === `/v1/predictions/${prediction}`).at(-1)!;
    // Failed on the poll that read the report: the first poll queued at submission, the second
    // after Replicate's `processing`, none after its `failed`.
    expect(job!.updatedAt - report.receivedAt).toBeLessThan(5_000);
    expect(sent).toEqual([{ kind: 'video.poll', jobId: id }, { kind: 'video.poll', jobId: id }]);

    const view = await app.fetch(new Request(`https://gateway.test/v1/videos/generations/${id}`, { headers }), gateway, createExecutionContext());
    expect(await view.json()).toMatchObject({ status: 'failed', url: null, actual_usd: null, error: 'The model refused the prompt (NSFW content detected).', error_code: 'provider_error' });
    expect(await accountStub(agent.account_id).snapshot()).toMatchObject({ balanceMicros: 5_000_000, heldMicros: 0 });
  });
});

describe('video, audio and image inputs rendered on fal through POST /v1/videos/generations', () => {
  const app = createApp();
  const falUrl = inject('falUpstreamUrl');

  /** The env of the Worker and its queue consumer, with fal played on 127.0.0.1 (the test delivers the polls). */
  const falEnv = { ...env, FAL_API_KEY: FAL_UPSTREAM_KEY, FAL_BASE_URL: falUrl, JOBS: { send: async () => {}, sendBatch: async () => {} } } as unknown as Env;

  async function funded(): Promise<{ apiKey: string; accountId: string }> {
    const agent = await register();
    await adminCredit(agent.account_id, '5');
    return { apiKey: agent.api_key, accountId: agent.account_id };
  }

  async function call(apiKey: string, path: string, body?: Record<string, unknown>): Promise<Response> {
    const init = body ? { method: 'POST', body: JSON.stringify(body) } : {};
    const req = new Request(`https://gateway.test${path}`, { ...init, headers: { Authorization: `Bearer ${apiKey}` } });
    return app.fetch(req, falEnv, createExecutionContext());
  }

  /** A stored upload of `type`, as a client's PUT to its upload_url leaves it in R2. */
  async function stored(apiKey: string, type: string, head: number[]): Promise<string> {
    const bytes = new Uint8Array(256);
    bytes.set(head);
    const reserved = await call(apiKey, '/v1/uploads', { content_type: type, content_length: bytes.length });
    expect(reserved.status).toBe(200);
    const { key, public_url } = (await reserved.json()) as { key: string; public_url: string };
    await env.MEDIA.put(key, bytes, { httpMetadata: { contentType: type } });
    return public_url;
  }
  const MP4 = [0, 0, 0, 0x18, ...[...'ftypisom'].map((c) => c.charCodeAt(0))];
  const MP3 = [...'ID3'].map((c) => c.charCodeAt(0));
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

  /** Submits, then delivers polls until the job ends; answers the job and what fal received. */
  async function render(apiKey: string, body: Record<string, unknown>) {
    const res = await call(apiKey, '/v1/videos/generations', body);
    expect(res.status).toBe(202);
    const { id, predicted_usd } = (await res.json()) as { id: string; predicted_usd: number };
    const upstream = (await mediaJob(database(env), id))?.upstream as { id: string };
    const sent = (await (await fetch(`${falUrl}/__requests/${upstream.id}`, { headers: { Authorization: `Key ${FAL_UPSTREAM_KEY}` } })).json()) as { model_id: string; input: Record<string, unknown> };
    for (let round = 0; round < 5 && (await status(id)) !== 'completed'; round++) await pollVideoJob(falEnv, id);
    const job = (await (await call(apiKey, `/v1/videos/generations/${id}`)).json()) as { status: string; actual_usd: number | null };
    return { predicted_usd, job, sent };
  }

  it.each([
    ['kuaishou/kling-1.6-standard', 'fal-ai/kling-video/v1.6/standard/image-to-video', { duration: 5 }, { duration: '5' }],
    ['kuaishou/kling-2.0-master', 'fal-ai/kling-video/v2/master/image-to-video', { duration: 5 }, { duration: '5' }],
    ['google/veo-3-fast', 'fal-ai/veo3/fast/image-to-video', { duration: 4, aspect_ratio: '9:16' }, { duration: '4s', aspect_ratio: '9:16', resolution: '720p' }],
  ])('sends a first frame for %s to %s as image_url, and completes with a charge', async (model, endpoint, extra, fields) => {
    const { apiKey } = await funded();
    const image = await stored(apiKey, 'image/png', PNG);
    const { predicted_usd, job, sent } = await render(apiKey, { model, prompt: 'the frame, moving', image_url: image, ...extra });
    expect(sent).toEqual({ model_id: endpoint, input: { prompt: 'the frame, moving', image_url: image, ...fields } });
    expect(job).toMatchObject({ status: 'completed', actual_usd: predicted_usd });
  });

  it('sends Hailuo 02 Pro a first and last frame without a duration (its image-to-video has none), at its 6 s price', async () => {
    const { apiKey } = await funded();
    const { predicted_usd, job, sent } = await render(apiKey, { model: 'minimax/hailuo-02-pro', prompt: 'a bridge at dusk', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' });
    expect(sent).toEqual({ model_id: 'fal-ai/minimax/hailuo-02/pro/image-to-video', input: { prompt: 'a bridge at dusk', image_url: 'https://example.com/a.png', end_image_url: 'https://example.com/z.png' } });
    expect(predicted_usd).toBe(0.48);
    expect(job).toMatchObject({ status: 'completed', actual_usd: 0.48 });
  });

  it('lip-syncs an uploaded video to an uploaded audio track: fal gets video_url and audio_url only, and with no length reported the 10 s bound is held and charged', async () => {
    const { apiKey, accountId } = await funded();
    const video = await stored(apiKey, 'video/mp4', MP4);
    const audio = await stored(apiKey, 'audio/mpeg', MP3);
    const { predicted_usd, job, sent } = await render(apiKey, { model: 'kuaishou/kling-lipsync', prompt: 'say it', video_urls: [video], audio_url: audio });
    expect(sent).toEqual({ model_id: 'fal-ai/kling-video/lipsync/audio-to-video', input: { video_url: video, audio_url: audio } });
    expect(predicted_usd).toBe(0.14);
    expect(job).toMatchObject({ status: 'completed', actual_usd: 0.14 });
    expect(await accountStub(accountId).snapshot()).toMatchObject({ balanceMicros: 5_000_000 - 140_000, heldMicros: 0 });
  });

  it.each([
    [3, 0.07, 5],
    [7, 0.14, 10],
    [12, 0.14, 10],
  ])('charges a lip-sync render whose output MP4 lasts %s s (its own mvhd, read as it is copied; fal reports no length) its seconds rounded up to 5 s (%s USD, %s s recorded), never past the 10 s hold', async (seconds, usd, billed) => {
    const { apiKey, accountId } = await funded();
    const video = `https://example.com/face.mp4?seconds=${seconds}`;
    const res = await call(apiKey, '/v1/videos/generations', { model: 'kuaishou/kling-lipsync', prompt: 'say it', video_url: video, audio_url: 'https://example.com/a.mp3' });
    // The spec requires a prompt; the endpoint has none, and the answer says it was not applied.
    expect(res.headers.get('x-service-unsupported-params')).toBe('prompt');
    const { id, predicted_usd } = (await res.json()) as { id: string; predicted_usd: number };
    expect(predicted_usd).toBe(0.14);
    for (let round = 0; round < 5 && (await status(id)) !== 'completed'; round++) await pollVideoJob(falEnv, id);
    expect(await (await call(apiKey, `/v1/videos/generations/${id}`)).json()).toMatchObject({ status: 'completed', actual_usd: usd });
    expect(await accountStub(accountId).snapshot()).toMatchObject({ balanceMicros: 5_000_000 - Math.round(usd * 1_000_000), heldMicros: 0 });
    // The request's record (D26) shows the seconds charged, not the 10 held.
    const record = await call(apiKey, `/v1/requests/${res.headers.get('x-service-request-id')}`);
    expect(await record.json()).toMatchObject({ path: '/v1/videos/generations', usage: { seconds: billed } });
  });

  it('refuses an upload of the wrong kind with 400 naming its field, before anything is held or sent, and the quote refuses it too', async () => {
    const { apiKey, accountId } = await funded();
    const video = await stored(apiKey, 'video/mp4', MP4);
    const audio = await stored(apiKey, 'audio/mpeg', MP3);
    const image = await stored(apiKey, 'image/png', PNG);
    // The gateway's own outputs as inputs: an image output is no video, and an output never hosted is refused too.
    const imageOutput = `https://gateway.test/files/outputs/${accountId}/${crypto.randomUUID()}.png`;
    await env.MEDIA.put(new URL(imageOutput).pathname.slice('/files/'.length), new Uint8Array(PNG), { httpMetadata: { contentType: 'image/png' } });
    const missingOutput = `https://gateway.test/files/outputs/${accountId}/${crypto.randomUUID()}.mp3`;
    for (const [body, param] of [
      [{ model: 'kuaishou/kling-lipsync', video_url: imageOutput, audio_url: audio }, 'video_url'],
      [{ model: 'kuaishou/kling-lipsync', video_url: video, audio_url: missingOutput }, 'audio_url'],
      [{ model: 'kuaishou/kling-lipsync', video_url: audio, audio_url: audio }, 'video_url'],
      [{ model: 'kuaishou/kling-lipsync', video_url: video, audio_urls: [image] }, 'audio_urls'],
      [{ model: 'kuaishou/kling-1.6-standard', image_url: video }, 'image_url'],
    ] as const) {
      const request = { prompt: 'say it', ...body };
      const refused = await expectError(await call(apiKey, '/v1/videos/generations', request), 400, 'invalid_request', 'invalid_request_error', param);
      expect(refused.error.message).toMatch(/takes (a|an) (video|audio|image) file|is not hosted here/);
      await expectError(await call(apiKey, '/v1/quote', { path: '/v1/videos/generations', body: request }), 400, 'invalid_request', 'invalid_request_error', param);
    }
    expect(await accountStub(accountId).snapshot()).toMatchObject({ balanceMicros: 5_000_000, heldMicros: 0 });
  });

  it.each([
    [{ audio_url: 'https://example.com/a.mp3' }, 'video_url'],
    [{ video_url: 'https://example.com/a.mp4' }, 'audio_url'],
    [{ video_urls: ['https://example.com/a.mp4', 'https://example.com/b.mp4'], audio_url: 'https://example.com/a.mp3' }, 'video_urls'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', duration: 10 }, 'duration'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', image_url: 'https://example.com/a.png' }, 'image_url'],
    // fal's lipsync/audio-to-video schema has video_url and audio_url only: the output keeps the input's resolution, its sound is the track.
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', resolution: '720p' }, 'resolution'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', resolution: '1080p' }, 'resolution'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', audio: true }, 'audio'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', audio: false }, 'audio'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', aspect_ratio: '16:9' }, 'aspect_ratio'],
    [{ video_url: 'https://example.com/a.mp4', audio_url: 'https://example.com/a.mp3', seed: 7 }, 'seed'],
  ])('refuses %o on the lip-sync model with 400 naming the field', async (body, param) => {
    const { apiKey } = await funded();
    await expectError(await call(apiKey, '/v1/videos/generations', { model: 'kuaishou/kling-lipsync', prompt: 'say it', ...body }), 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('lists in GET /v1/models which inputs each video model takes', async () => {
    const res = await app.fetch(new Request('https://gateway.test/v1/models'), falEnv, createExecutionContext());
    const models = ((await res.json()) as { data: { id: string; video?: { inputs: Record<string, unknown> } }[] }).data;
    const inputs = (id: string) => models.find((model) => model.id === id)?.video?.inputs;
    expect(inputs('kuaishou/kling-lipsync')).toEqual({ image_url: false, end_image_url: false, max_reference_images: 0, video_url: 'required', audio_url: 'required', seed: false, aspect_ratios: [] });
    expect(inputs('minimax/hailuo-02-pro')).toMatchObject({ image_url: true, end_image_url: true, video_url: 'no', audio_url: 'no' });
    expect(inputs('google/veo-3.1')).toMatchObject({ image_url: true, end_image_url: true, max_reference_images: 3, seed: true, aspect_ratios: ['16:9', '9:16'] });
  });
});
