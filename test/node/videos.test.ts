import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalUpstream, type FalUpstream } from '../upstreams/fal';
import { mp4ByteAt } from '../upstreams/mp4';
import { png } from '../upstreams/openai-images';
import { BIG_VIDEO_BYTES, SMALL_VIDEO_BYTES, startOpenAIVideosUpstream, type OpenAIVideosUpstream } from '../upstreams/openai-videos';
import { REPLICATE_VIDEO_BYTES, startReplicateUpstream, type ReplicateUpstream } from '../upstreams/replicate';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Video jobs as a client meets them: the gateway under `npm start` with `.dev.vars`, OpenAI's
 * Videos API and fal's queue played locally, the jobs polled through the real local queue.
 */

const ADMIN = 'videos-admin-token-0123456789';
const OPENAI_KEY = 'sk-videos-test';
const FAL_KEY = 'fal-videos-test';
let openaiVideos: OpenAIVideosUpstream;
let fal: FalUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [openaiVideos, fal] = await Promise.all([startOpenAIVideosUpstream(OPENAI_KEY), startFalUpstream(FAL_KEY)]);
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, OPENAI_API_KEY: OPENAI_KEY, OPENAI_BASE_URL: `${openaiVideos.url}/v1`, FAL_API_KEY: FAL_KEY, FAL_BASE_URL: fal.url });
});
afterAll(async () => {
  await gateway?.stop();
  await openaiVideos?.stop();
  await fal?.stop();
});

const agent = (usd: string) => fundedAgent(gateway.url, ADMIN, usd);
const usd = (dollars: number) => dollars.toFixed(6);

interface VideoJob {
  id: string;
  status: string;
  url: string | null;
  error?: string;
  predicted_usd: number;
  actual_usd: number | null;
}

function submit(apiKey: string, body: Record<string, unknown>) {
  return fetch(`${gateway.url}/v1/videos/generations`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
}

/** Polls the job until it ends, returning every status seen in order. */
async function untilEnded(apiKey: string, id: string): Promise<{ job: VideoJob; seen: string[] }> {
  const seen: string[] = [];
  for (let i = 0; i < 300; i++) {
    const res = await fetch(`${gateway.url}/v1/videos/generations/${id}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    const job = (await res.json()) as VideoJob;
    if (seen.at(-1) !== job.status) seen.push(job.status);
    if (job.status === 'completed' || job.status === 'failed') return { job, seen };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`job ${id} did not end`);
}

async function totalSize(url: string): Promise<number> {
  const res = await fetch(url, { headers: { Range: 'bytes=0-0' } });
  expect(res.status).toBe(206);
  return Number(res.headers.get('content-range')!.split('/')[1]);
}

describe('video jobs', () => {
  it('goes queued → processing → completed on OpenAI, charging exactly the seconds asked for, with a link that serves ranges', async () => {
    const { apiKey, account } = await agent('1');
    const res = await submit(apiKey, { model: 'openai/sora-2', prompt: 'a paper boat on a river', duration: 8 });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { id: string; status: string; predicted_usd: number };
    expect(accepted).toEqual({ id: expect.stringMatching(/^vidjob_/), status: 'queued', predicted_usd: 0.8 });
    expect(openaiVideos.created.at(-1)!.fields).toEqual({ model: 'sora-2', prompt: 'a paper boat on a river', seconds: '8', size: '1280x720' });
    expect(await account()).toMatchObject({ held_usd: '0.800000' });

    const { job, seen } = await untilEnded(apiKey, accepted.id);
    expect(seen).toEqual(['queued', 'processing', 'completed']);
    expect(job).toMatchObject({ status: 'completed', predicted_usd: 0.8, actual_usd: 0.8, url: expect.stringContaining('/files/outputs/') });
    const head = await fetch(job.url!, { headers: { Range: 'bytes=0-23' } });
    expect(head.status).toBe(206);
    expect(Buffer.from(await head.arrayBuffer()).subarray(4, 8).toString('latin1')).toBe('ftyp');
    expect(await totalSize(job.url!)).toBe(SMALL_VIDEO_BYTES);
    expect(await account()).toMatchObject({ balance_usd: '0.200000', held_usd: '0.000000' });

    const listed = (await (await fetch(`${gateway.url}/v1/generations?kind=video`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { data: { kind: string; urls: string[] }[] };
    expect(listed.data).toEqual([expect.objectContaining({ kind: 'video', urls: [job.url] })]);
    const other = await agent('0');
    expect((await fetch(`${gateway.url}/v1/videos/generations/${accepted.id}`, { headers: { Authorization: `Bearer ${other.apiKey}` } })).status).toBe(404);
  });

  it('refuses a duration the model does not render with 400 naming the allowed set, sending and holding nothing (D7)', async () => {
    const { apiKey, account } = await agent('1');
    const before = openaiVideos.created.length;
    const res = await submit(apiKey, { model: 'openai/sora-2', prompt: 'x', duration: 5 });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as { error: { param: string; message: string } };
    expect(error.param).toBe('duration');
    expect(error.message).toContain('4, 8, 12');
    expect(openaiVideos.created.length).toBe(before);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });

  it('fails a blocked render with its reason and charges nothing', async () => {
    const { apiKey, account } = await agent('1');
    const { id } = (await (await submit(apiKey, { model: 'openai/sora-2', prompt: 'something blocked [fail]', duration: 4 })).json()) as { id: string };
    const { job } = await untilEnded(apiKey, id);
    expect(job).toMatchObject({ status: 'failed', url: null, actual_usd: null, error: expect.stringContaining('moderation') });
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });

  it('renders on fal and copies a file sent without Content-Length in parts, byte for byte', async () => {
    const { apiKey, account } = await agent('1');
    const { id } = (await (await submit(apiKey, { model: 'google/veo-3-fast', prompt: 'a kite [chunked]', duration: 4 })).json()) as { id: string };
    const submitted = fal.requests.filter((request) => request.method === 'POST').at(-1)!;
    expect(submitted.path).toBe('/fal-ai/veo3/fast');
    expect(submitted.body).toEqual({ prompt: 'a kite [chunked]', duration: '4s', resolution: '720p', aspect_ratio: '16:9' });
    const { job } = await untilEnded(apiKey, id);
    expect(job).toMatchObject({ status: 'completed', actual_usd: 0.6 });
    const size = await totalSize(job.url!);
    expect(size).toBe(3 * 1024 * 1024);
    const stored = Buffer.from(await (await fetch(job.url!)).arrayBuffer());
    expect(stored.length).toBe(size);
    for (const offset of [0, 4, 24, 1_000, size - 1]) expect(stored[offset], `byte ${offset}`).toBe(mp4ByteAt(size, 0, offset));
    expect(await account()).toMatchObject({ balance_usd: '0.400000', held_usd: '0.000000' });
  });

  it("sends fal each input the model's schema has, under its documented name, and refuses the ones it lacks naming them", async () => {
    const { apiKey } = await agent('5');
    const lastBody = () => fal.requests.filter((request) => request.method === 'POST').at(-1)!.body;
    const veo = await submit(apiKey, { model: 'google/veo-3-fast', prompt: 'a kite at dusk', duration: 4, resolution: '1080p', aspect_ratio: '9:16', audio: false, seed: 42 });
    expect(veo.status).toBe(202);
    expect(lastBody()).toEqual({ prompt: 'a kite at dusk', duration: '4s', resolution: '1080p', aspect_ratio: '9:16', generate_audio: false, seed: 42 });
    // Kling's text-to-video takes a square ratio but no resolution field; Hailuo takes neither ratio nor resolution.
    expect((await submit(apiKey, { model: 'kuaishou/kling-2.1-master', prompt: 'a fox', duration: 5, aspect_ratio: '1:1' })).status).toBe(202);
    expect(lastBody()).toEqual({ prompt: 'a fox', duration: '5', aspect_ratio: '1:1' });
    expect((await submit(apiKey, { model: 'minimax/hailuo-02-pro', prompt: 'a tide', duration: 6 })).status).toBe(202);
    expect(lastBody()).toEqual({ prompt: 'a tide', duration: '6' });
    for (const [body, param] of [
      [{ model: 'kuaishou/kling-2.1-pro', seed: 1 }, 'seed'],
      [{ model: 'minimax/hailuo-02-pro', aspect_ratio: '16:9' }, 'aspect_ratio'],
      [{ model: 'google/veo-3-fast', aspect_ratio: '1:1' }, 'aspect_ratio'],
      [{ model: 'google/veo-3-fast', end_image_url: 'https://example.com/z.png' }, 'end_image_url'],
    ] as const) {
      const res = await submit(apiKey, { prompt: 'x', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
    }
  });

  /** A PNG hosted here through the uploads flow (reserve, then the one PUT): its public_url. */
  async function uploaded(apiKey: string, label: string): Promise<string> {
    const bytes = png(64, 36, label);
    const res = await fetch(`${gateway.url}/v1/uploads`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ content_type: 'image/png', content_length: bytes.length }) });
    expect(res.status).toBe(200);
    const { upload_url, upload_headers, public_url } = (await res.json()) as { upload_url: string; upload_headers: Record<string, string>; public_url: string };
    expect((await fetch(upload_url, { method: 'PUT', headers: upload_headers, body: bytes as Uint8Array<ArrayBuffer> })).status).toBeLessThan(300);
    return public_url;
  }

  it('sends a request with images to the endpoint fal documents for them, under its field names, uploads included', async () => {
    const { apiKey } = await agent('20');
    const first = await uploaded(apiKey, 'first frame');
    const last = await uploaded(apiKey, 'last frame');
    const lastPost = () => {
      const post = fal.requests.filter((request) => request.method === 'POST').at(-1)!;
      return { path: post.path, body: post.body };
    };
    const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{ model: 'google/veo-3.1', image_url: first, seed: 3 }, '/fal-ai/veo3.1/image-to-video', { image_url: first, seed: 3 }],
      [{ model: 'google/veo-3.1', image_url: first, end_image_url: last }, '/fal-ai/veo3.1/first-last-frame-to-video', { first_frame_url: first, last_frame_url: last }],
      [{ model: 'google/veo-3.1', image_urls: [first, 'https://example.com/b.png', last] }, '/fal-ai/veo3.1/reference-to-video', { image_urls: [first, 'https://example.com/b.png', last] }],
      [{ model: 'google/veo-3.1-fast', image_url: first, end_image_url: last }, '/fal-ai/veo3.1/fast/first-last-frame-to-video', { first_frame_url: first, last_frame_url: last }],
      [{ model: 'google/veo-3', image_url: first }, '/fal-ai/veo3/image-to-video', { image_url: first }],
      [{ model: 'kuaishou/kling-2.1-pro', image_url: first, end_image_url: last }, '/fal-ai/kling-video/v2.1/pro/image-to-video', { image_url: first, tail_image_url: last }],
      [{ model: 'kuaishou/kling-2.1-master', image_url: first }, '/fal-ai/kling-video/v2.1/master/image-to-video', { image_url: first }],
      [{ model: 'luma/ray-2-flash', image_url: first, end_image_url: last }, '/fal-ai/luma-dream-machine/ray-2-flash/image-to-video', { image_url: first, end_image_url: last }],
      [{ model: 'minimax/hailuo-02-standard', image_url: first, end_image_url: last }, '/fal-ai/minimax/hailuo-02/standard/image-to-video', { image_url: first, end_image_url: last }],
      [{ model: 'bytedance/seedance-1-pro', image_url: first }, '/fal-ai/bytedance/seedance/v1/pro/image-to-video', { image_url: first }],
      [{ model: 'alibaba/wan-2.2-a14b', image_url: first }, '/fal-ai/wan/v2.2-a14b/image-to-video', { image_url: first }],
      [{ model: 'alibaba/wan-2.2-a14b', image_url: first, end_image_url: last }, '/fal-ai/wan/v2.2-a14b/image-to-video', { image_url: first, end_image_url: last }],
      [{ model: 'bytedance/seedance-1.5-pro', image_url: first, end_image_url: last }, '/fal-ai/bytedance/seedance/v1.5/pro/image-to-video', { image_url: first, end_image_url: last }],
      [{ model: 'kuaishou/kling-2.5-turbo-pro', image_url: first, end_image_url: last }, '/fal-ai/kling-video/v2.5-turbo/pro/image-to-video', { image_url: first, tail_image_url: last }],
      [{ model: 'kuaishou/kling-1.6-standard', image_url: first }, '/fal-ai/kling-video/v1.6/standard/image-to-video', { image_url: first }],
      [{ model: 'minimax/hailuo-02-pro', image_url: first, end_image_url: last }, '/fal-ai/minimax/hailuo-02/pro/image-to-video', { image_url: first, end_image_url: last }],
    ];
    for (const [body, path, images] of cases) {
      const res = await submit(apiKey, { prompt: 'the frames, moving', ...body });
      expect(res.status, `${JSON.stringify(body)}: ${await res.clone().text()}`).toBe(202);
      expect(lastPost(), JSON.stringify(body)).toMatchObject({ path, body: { prompt: 'the frames, moving', ...images } });
    }
    // Kling's image-to-video has no aspect_ratio: none is sent with the image.
    await submit(apiKey, { model: 'kuaishou/kling-2.1-master', prompt: 'a fox', image_url: first });
    expect(lastPost().body).not.toHaveProperty('aspect_ratio');
  });

  it('renders on Replicate when it is the configured route, through processing to a hosted file', async () => {
    const replicate: ReplicateUpstream = await startReplicateUpstream('r8_videos');
    // A second gateway where Replicate is the only provider, as an operator without fal has it.
    const replicateGateway = await startGateway({ ADMIN_TOKEN: ADMIN, REPLICATE_API_KEY: 'r8_videos', REPLICATE_BASE_URL: `${replicate.url}/v1` });
    try {
      const { apiKey, account } = await fundedAgent(replicateGateway.url, ADMIN, '2');
      const res = await fetch(`${replicateGateway.url}/v1/videos/generations`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ model: 'kuaishou/kling-2.1-master', prompt: 'a heron lands', duration: 5, aspect_ratio: '9:16' }),
      });
      expect(res.status).toBe(202);
      const { id, predicted_usd } = (await res.json()) as { id: string; predicted_usd: number };
      expect(replicate.requests.at(-1)).toMatchObject({ path: '/v1/models/kwaivgi/kling-v2.1-master/predictions', body: { input: { prompt: 'a heron lands', duration: 5, aspect_ratio: '9:16' } } });
      const seen: string[] = [];
      let job: VideoJob | undefined;
      for (let i = 0; i < 200 && job?.status !== 'completed' && job?.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        job = (await (await fetch(`${replicateGateway.url}/v1/videos/generations/${id}`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as VideoJob;
        if (seen.at(-1) !== job.status) seen.push(job.status);
      }
      expect(seen).toEqual(['queued', 'processing', 'completed']);
      expect(job).toMatchObject({ status: 'completed', actual_usd: predicted_usd });
      const tail = await fetch(job!.url!, { headers: { Range: 'bytes=0-0' } });
      expect(tail.headers.get('content-range')).toBe(`bytes 0-0/${REPLICATE_VIDEO_BYTES}`);
      expect(await account()).toMatchObject({ held_usd: '0.000000' });

      // Kling 2.1 Standard on Replicate is image-to-video: the first frame as start_image, no ratio
      // (it follows the image), and no end_image (Replicate takes one only in mode "pro", not this route's).
      const post = (body: Record<string, unknown>) =>
        fetch(`${replicateGateway.url}/v1/videos/generations`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ model: 'kuaishou/kling-2.1-standard', prompt: 'a heron', duration: 5, ...body }) });
      const framed = await post({ image_url: 'https://example.com/heron.png' });
      expect(framed.status, await framed.clone().text()).toBe(202);
      expect(replicate.requests.at(-1)).toMatchObject({ path: '/v1/models/kwaivgi/kling-v2.1/predictions', body: { input: { prompt: 'a heron', duration: 5, start_image: 'https://example.com/heron.png' } } });
      expect((replicate.requests.at(-1)!.body as { input: Record<string, unknown> }).input).not.toHaveProperty('aspect_ratio');
      for (const [extra, param] of [
        [{ image_url: 'https://example.com/heron.png', end_image_url: 'https://example.com/nest.png' }, 'end_image_url'],
        [{ image_url: 'https://example.com/heron.png', aspect_ratio: '9:16' }, 'aspect_ratio'],
      ] as const) {
        const res = await post(extra);
        expect(res.status, JSON.stringify(extra)).toBe(400);
        expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
      }
    } finally {
      await replicateGateway.stop();
      await replicate.stop();
    }
  });

  it('streams a 150 MB upstream video into storage', { timeout: 120_000 }, async () => {
    const { apiKey } = await agent('2');
    const { id } = (await (await submit(apiKey, { model: 'openai/sora-2', prompt: 'a long take [big]', duration: 4 })).json()) as { id: string };
    const { job } = await untilEnded(apiKey, id);
    expect(job.status).toBe('completed');
    expect(await totalSize(job.url!)).toBe(BIG_VIDEO_BYTES);
  });
});

describe('video jobs when the provider fails or the transport does', () => {
  const falSubmissions = (prompt: string) => fal.requests.filter((request) => request.method === 'POST' && (request.body as { prompt?: string }).prompt === prompt).length;

  it('fails a render fal reports failed (runner error, result 500) within 5 s of the report, submitted once, charging nothing', async () => {
    const { apiKey, account } = await agent('1');
    const prompt = `a runner crash ${Date.now()} [fail-runner]`;
    const { id } = (await (await submit(apiKey, { model: 'google/veo-3-fast', prompt, duration: 4 })).json()) as { id: string };
    const { job } = await untilEnded(apiKey, id);
    const endedAt = Date.now();
    expect(job).toMatchObject({ status: 'failed', url: null, actual_usd: null, error: expect.stringContaining('CUDA out of memory') });
    expect(falSubmissions(prompt)).toBe(1);
    const report = fal.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/status')).at(-1)!;
    expect(endedAt - report.receivedAt).toBeLessThan(5_000);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });

  it('polls a fal render again after a 503 without a failure report, submitted once and billed once', async () => {
    const { apiKey, account } = await agent('1');
    const prompt = `a kite in fog ${Date.now()} [503-once]`;
    const { id } = (await (await submit(apiKey, { model: 'google/veo-3-fast', prompt, duration: 4 })).json()) as { id: string };
    const { job } = await untilEnded(apiKey, id);
    expect(job).toMatchObject({ status: 'completed', actual_usd: 0.6 });
    expect(falSubmissions(prompt)).toBe(1);
    expect(await account()).toMatchObject({ balance_usd: '0.400000', held_usd: '0.000000' });
  });

  it('polls an OpenAI render again after a 503 without a failure report, submitted once and billed once', async () => {
    const { apiKey, account } = await agent('1');
    const prompt = `a paper boat in fog ${Date.now()} [503-once]`;
    const { id } = (await (await submit(apiKey, { model: 'openai/sora-2', prompt, duration: 4 })).json()) as { id: string };
    const { job } = await untilEnded(apiKey, id);
    expect(job).toMatchObject({ status: 'completed' });
    expect(openaiVideos.created.filter((video) => video.fields.prompt === prompt)).toHaveLength(1);
    expect(await account()).toMatchObject({ balance_usd: usd(1 - job.actual_usd!), held_usd: '0.000000' });
  });
});
