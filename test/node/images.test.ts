import { createHash } from 'node:crypto';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalUpstream, type FalUpstream } from '../upstreams/fal';
import { startOpenAIImagesUpstream, type ImageUsage, type ImagesUpstream } from '../upstreams/openai-images';
import { startReplicateUpstream, type ReplicateUpstream } from '../upstreams/replicate';
import { fundedAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * `POST /v1/images/generations` and `GET /v1/generations` as a client meets them: the gateway
 * started with `npm start` and `.dev.vars`, OpenAI's Images API played by a local server, the
 * official `openai` SDK where it has the route.
 */

const ADMIN = 'images-admin-token-0123456789';
const IMAGE_KEY = 'sk-images-test';
const FAL_KEY = 'fal-images-test';
const REPLICATE_KEY = 'r8_images_test';
let upstream: ImagesUpstream;
let fal: FalUpstream;
let replicate: ReplicateUpstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [upstream, fal, replicate] = await Promise.all([startOpenAIImagesUpstream(IMAGE_KEY), startFalUpstream(FAL_KEY), startReplicateUpstream(REPLICATE_KEY)]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    OPENAI_API_KEY: IMAGE_KEY,
    OPENAI_BASE_URL: `${upstream.url}/v1`,
    FAL_API_KEY: FAL_KEY,
    FAL_BASE_URL: fal.url,
    REPLICATE_API_KEY: REPLICATE_KEY,
    // Replicate's SDK writes its base with /v1; the gateway takes it either way.
    REPLICATE_BASE_URL: replicate.url,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await upstream?.stop();
  await fal?.stop();
  await replicate?.stop();
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);
const usd = (micros: number) => (micros / 1e6).toFixed(6);

/**
 * gpt-image-1-mini is token-billed: $2 per 1M text input tokens, $2.50 image input, $8 output,
 * plus the 5 % service fee, rounded half up once. Worked in half micro-dollars to stay exact.
 */
function miniCostMicros(usage: ImageUsage): number {
  const halfMicros = usage.input_tokens_details.text_tokens * 4 + usage.input_tokens_details.image_tokens * 5 + usage.output_tokens * 16;
  return Math.floor((halfMicros * 105 + 100) / 200);
}
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function agent(usd: string) {
  const created = await fundedAgent(gateway.url, ADMIN, usd);
  return { ...created, openai: new OpenAI({ apiKey: created.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 }) };
}

function generate(apiKey: string, body: Record<string, unknown>, init: RequestInit = {}) {
  return fetch(`${gateway.url}/v1/images/generations`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body), ...init });
}

describe('POST /v1/images/generations', () => {
  it('answers hosted links even for b64_json, serving exactly the upstream bytes, billed the reported tokens plus the fee', async () => {
    const { openai, account } = await agent('5');
    const answeredBefore = upstream.answered.length;
    const { data: result, response } = await openai.images
      .generate({ model: 'openai/gpt-image-1-mini', prompt: 'a red fox in snow', n: 2, size: '1792x1024', quality: 'hd', response_format: 'b64_json' })
      .withResponse();
    expect(result.data).toHaveLength(2);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/generations');
    expect(sent.fields).toEqual({ model: 'gpt-image-1-mini', prompt: 'a red fox in snow', n: 2, size: '1536x1024', quality: 'high' });

    const upstreamPngs = upstream.answered.slice(answeredBefore);
    for (const [i, image] of result.data!.entries()) {
      expect(image.b64_json).toBeUndefined();
      expect(image.url!.startsWith(`${gateway.url}/files/outputs/`)).toBe(true);
      const file = await fetch(image.url!);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await file.arrayBuffer()).toString('base64')).toBe(upstreamPngs[i]);
      const head = await fetch(image.url!, { headers: { Range: 'bytes=0-7' } });
      expect(head.status).toBe(206);
      expect(Buffer.from(await head.arrayBuffer()).equals(Buffer.from(upstreamPngs[i]!, 'base64').subarray(0, 8))).toBe(true);
    }
    // 5 prompt tokens at $2/1M and 2 x 6,240 landscape high-quality output tokens at $8/1M: 99,850 µ$, plus 5 %.
    expect(upstream.usages.at(-1)).toMatchObject({ input_tokens_details: { text_tokens: 5, image_tokens: 0 }, output_tokens: 12_480 });
    expect(miniCostMicros(upstream.usages.at(-1)!)).toBe(104_843);
    expect(response.headers.get('x-service-cost')).toBe('0.104843');
    expect(micros((await account()).balance_usd)).toBe(5_000_000 - 104_843);
    expect(response.headers.get('x-service-credits-remaining')).toBe('4.895157');
  });

  it('sends an edit-capable model its references as files, our own hosted link read from storage', async () => {
    const { apiKey } = await agent('5');
    const first = (await (await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'a cat' })).json()) as { data: { url: string }[] };
    const reference = new Uint8Array(await (await fetch(first.data[0]!.url)).arrayBuffer());

    const res = await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'the cat in a hat', quality: 'low', image_url: first.data[0]!.url });
    expect(res.status).toBe(200);
    const sent = upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/images/edits');
    expect(sent.fields).toMatchObject({ model: 'gpt-image-1-mini', prompt: 'the cat in a hat', quality: 'low', n: '1' });
    expect(sent.files).toEqual([{ field: 'image[]', type: 'image/png', size: reference.byteLength, sha256: sha256(reference) }]);
    // The reference is billed as image input: 520 tokens at $2.50/1M, beside 4 text and 272 output tokens.
    expect(upstream.usages.at(-1)).toMatchObject({ input_tokens_details: { text_tokens: 4, image_tokens: 520 }, output_tokens: 272 });
    expect(res.headers.get('x-service-cost')).toBe(usd(miniCostMicros(upstream.usages.at(-1)!)));
    expect(res.headers.get('x-service-cost')).toBe('0.003658');
  });

  it('refuses references to a model that takes none, and a private reference URL, with 400 and nothing charged or sent', async () => {
    const { apiKey, account } = await agent('1');
    const sentBefore = upstream.requests.length;
    const none = await generate(apiKey, { model: 'black-forest-labs/flux-1-schnell', prompt: 'x', image_url: 'https://example.com/a.png' });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: { param: string } }).error.param).toBe('image_url');
    const privateRef = await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'x', image_urls: ['https://127.0.0.1/a.png'] });
    expect(privateRef.status).toBe(400);
    expect(((await privateRef.json()) as { error: { param: string } }).error.param).toBe('image_urls');
    // Links to our own files that can name none: a malformed escape, a key longer than R2 allows (each was a 500).
    for (const link of [`${gateway.url}/files/uploads/%`, `${gateway.url}/files/uploads/${'a'.repeat(1100)}`]) {
      const own = await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'x', image_url: link });
      expect(own.status, link.slice(-20)).toBe(400);
      expect(((await own.json()) as { error: { param: string } }).error.param).toBe('image_url');
    }
    expect(upstream.requests.length).toBe(sentBefore);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });

  it('charges nothing when the provider refuses, and answers 402 on an empty balance', async () => {
    const { apiKey, account } = await agent('1');
    const refused = await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'something [reject]' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });

    const broke = await agent('0');
    const res = await generate(broke.apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'a fox' });
    expect(res.status).toBe(402);
  });

  // Under `wrangler dev` the proxy keeps workerd's side of the request open after the client
  // leaves, so this passes here even without `waitUntil`; it shows the outcome, not the mechanism.
  it('finishes, hosts, lists and bills a render whose client left', async () => {
    const { apiKey, account } = await agent('1');
    const client = new AbortController();
    const pending = generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'a slow owl [slow]' }, { signal: client.signal }).catch(() => null);
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.abort();
    await pending;
    let listed: { data: { prompt: string; urls: string[] }[] } = { data: [] };
    for (let i = 0; i < 50 && listed.data.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      listed = (await (await fetch(`${gateway.url}/v1/generations`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as typeof listed;
    }
    expect(listed.data.map((row) => row.prompt)).toEqual(['a slow owl [slow]']);
    expect((await fetch(listed.data[0]!.urls[0]!)).status).toBe(200);
    expect(await account()).toMatchObject({ balance_usd: '0.991119', held_usd: '0.000000' });
  });
});

describe('images on the fal queue', () => {
  it('submits, polls the app-level status URL, downloads the CDN files and hosts exactly their bytes', async () => {
    const { apiKey, account } = await agent('1');
    const servedBefore = fal.served.length;
    const res = await generate(apiKey, { model: 'black-forest-labs/flux-1-dev', prompt: 'a lighthouse', n: 2, size: '1024x768' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { url: string }[] };
    const submit = fal.requests.find((request) => request.method === 'POST' && request.path === '/fal-ai/flux/dev' && (request.body as { prompt?: string }).prompt === 'a lighthouse');
    expect(submit?.body).toEqual({ prompt: 'a lighthouse', num_images: 2, image_size: { width: 1024, height: 768 } });
    const served = fal.served.slice(servedBefore);
    expect(body.data).toHaveLength(2);
    for (const [i, image] of body.data.entries()) {
      expect(image.url.startsWith(`${gateway.url}/files/outputs/`)).toBe(true);
      expect(Buffer.from(await (await fetch(image.url)).arrayBuffer()).toString('base64')).toBe(served[i]);
    }
    expect(res.headers.get('x-service-cost')).toBe('0.050000');
    expect(await account()).toMatchObject({ balance_usd: '0.950000', held_usd: '0.000000' });
  });

  it('sends references to the edit endpoint as links', async () => {
    const { apiKey } = await agent('1');
    const res = await generate(apiKey, { model: 'black-forest-labs/flux-2-pro', prompt: 'the same, at night', image_urls: ['https://example.com/a.png', 'https://example.com/b.png'] });
    expect(res.status).toBe(200);
    const submit = fal.requests.filter((request) => request.method === 'POST').at(-1)!;
    expect(submit.path).toBe('/fal-ai/flux-2-pro/edit');
    expect(submit.body).toMatchObject({ image_urls: ['https://example.com/a.png', 'https://example.com/b.png'] });
  });

  it('charges nothing for a render fal completes with an error, sync or as a job', async () => {
    const { apiKey, account } = await agent('1');
    const res = await generate(apiKey, { model: 'black-forest-labs/flux-1-dev', prompt: 'a refused thing [fail]' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('refused');
    const submitted = await fetch(`${gateway.url}/v1/images/jobs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'black-forest-labs/flux-1-dev', prompt: 'another refused thing [fail]' }),
    });
    const { id } = (await submitted.json()) as { id: string };
    const job = await pollJob(apiKey, id, (j) => j.status === 'completed' || j.status === 'failed');
    expect(job).toMatchObject({ status: 'failed', actual_usd: null, error: expect.stringContaining('refused') });
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });
});

describe('image jobs when the provider fails or the transport does', () => {
  const submitJob = async (apiKey: string, model: string, prompt: string) => {
    const res = await fetch(`${gateway.url}/v1/images/jobs`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify({ model, prompt }) });
    expect(res.status).toBe(202);
    return ((await res.json()) as { id: string }).id;
  };
  const ended = (job: ImageJob) => job.status === 'completed' || job.status === 'failed';
  const submissions = (requests: { method: string; body: unknown }[], prompt: string) =>
    requests.filter((request) => request.method === 'POST' && JSON.stringify(request.body).includes(JSON.stringify(prompt))).length;

  it('fails a render fal reports failed (runner error, result 500) within 5 s of the report, submitted once, charging nothing', async () => {
    const { apiKey, account } = await agent('1');
    const prompt = `a runner crash ${Date.now()} [fail-runner]`;
    const job = await pollJob(apiKey, await submitJob(apiKey, 'black-forest-labs/flux-1-dev', prompt), ended);
    const endedAt = Date.now();
    expect(job).toMatchObject({ status: 'failed', actual_usd: null, error: expect.stringContaining('CUDA out of memory') });
    expect(submissions(fal.requests, prompt)).toBe(1);
    const report = fal.requests.filter((request) => request.method === 'GET' && request.path.endsWith('/status')).at(-1)!;
    expect(endedAt - report.receivedAt).toBeLessThan(5_000);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });

  it.each([
    ['fal', 'black-forest-labs/flux-1-dev'],
    ['Replicate', 'luma/photon'],
  ])('polls a %s render again after a 503 without a failure report, submitted once and billed once', async (rail, model) => {
    const { apiKey, account } = await agent('1');
    const prompt = `a lighthouse in fog ${Date.now()} [503-once]`;
    const job = await pollJob(apiKey, await submitJob(apiKey, model, prompt), ended);
    expect(job).toMatchObject({ status: 'completed' });
    expect(submissions((rail === 'fal' ? fal : replicate).requests, prompt)).toBe(1);
    const charged = Math.round(job.actual_usd! * 1e6);
    expect(charged).toBeGreaterThan(0);
    expect(await account()).toMatchObject({ balance_usd: usd(1_000_000 - charged), held_usd: '0.000000' });
  });

  it('fails a prediction Replicate canceled at once, submitted once, charging nothing', async () => {
    const { apiKey, account } = await agent('1');
    const prompt = `a canceled thing ${Date.now()} [cancel]`;
    const job = await pollJob(apiKey, await submitJob(apiKey, 'luma/photon', prompt), ended);
    expect(job).toMatchObject({ status: 'failed', actual_usd: null, error: expect.stringContaining('canceled') });
    expect(submissions(replicate.requests, prompt)).toBe(1);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });
});

describe('images on Replicate predictions', () => {
  it('runs one prediction per image at the nearest aspect ratio and hosts the output files exactly', async () => {
    const { apiKey, account } = await agent('1');
    const servedBefore = replicate.served.length;
    const res = await generate(apiKey, { model: 'luma/photon', prompt: 'a wide valley', n: 2, size: '1792x1024' });
    expect(res.status).toBe(200);
    const creates = replicate.requests.filter((request) => request.method === 'POST' && (request.body as { input: { prompt: string } }).input.prompt === 'a wide valley');
    expect(creates.map((request) => [request.path, request.body])).toEqual(
      Array.from({ length: 2 }, () => ['/v1/models/luma/photon/predictions', { input: { prompt: 'a wide valley', aspect_ratio: '16:9' } }]),
    );
    const body = (await res.json()) as { data: { url: string }[] };
    const hosted = await Promise.all(body.data.map(async (image) => Buffer.from(await (await fetch(image.url)).arrayBuffer()).toString('base64')));
    expect(hosted.sort()).toEqual(replicate.served.slice(servedBefore).sort());
    expect(res.headers.get('x-service-cost')).toBe('0.060000');
    expect(await account()).toMatchObject({ balance_usd: '0.940000', held_usd: '0.000000' });
  });

  it('sends references in the input member each model names, as links Replicate downloads; an unreadable one is free', async () => {
    // A gateway where Replicate is the only provider, so the edit models are served there.
    const only = await startGateway({ ADMIN_TOKEN: ADMIN, REPLICATE_API_KEY: REPLICATE_KEY, REPLICATE_BASE_URL: `${replicate.url}/v1` });
    try {
      const { apiKey, account } = await fundedAgent(only.url, ADMIN, '1');
      const render = (body: Record<string, unknown>) =>
        fetch(`${only.url}/v1/images/generations`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });
      const lastInput = () => (replicate.requests.filter((request) => request.method === 'POST').at(-1)!.body as { input: Record<string, unknown> }).input;

      const first = (await (await render({ model: 'luma/photon', prompt: 'a plain mug' })).json()) as { data: { url: string }[] };
      const reference = first.data[0]!.url;
      const referenceSha = sha256(new Uint8Array(await (await fetch(reference)).arrayBuffer()));

      const kontext = await render({ model: 'black-forest-labs/flux-1-kontext-pro', prompt: 'the mug in red', image_url: reference });
      expect(kontext.status).toBe(200);
      expect(lastInput()).toEqual({ prompt: 'the mug in red', aspect_ratio: '1:1', input_image: reference });
      expect(replicate.fetched.at(-1)).toEqual({ field: 'input_image', url: reference, sha256: referenceSha });

      const seedream = await render({ model: 'bytedance/seedream-4', prompt: 'two mugs', image_urls: [reference, reference] });
      expect(seedream.status).toBe(200);
      expect(lastInput()).toEqual({ prompt: 'two mugs', aspect_ratio: '1:1', image_input: [reference, reference] });

      const unreadable = await render({ model: 'black-forest-labs/flux-1-kontext-pro', prompt: 'a lost mug', image_url: `${only.url}/files/outputs/none/missing` });
      expect(unreadable.status).toBe(400);
      expect(((await unreadable.json()) as { error: { message: string } }).error.message).toContain('Failed to download');
      // photon $0.03, Kontext [pro] $0.04, Seedream 4 $0.03; the failed render is free.
      expect(await account()).toMatchObject({ balance_usd: '0.900000', held_usd: '0.000000' });
    } finally {
      await only.stop();
    }
  });

  it.each([
    ['failed', 'a refused thing [fail]', 400, 'NSFW'],
    ['canceled', 'a canceled thing [cancel]', 502, 'canceled'],
  ])('charges nothing for a %s prediction', async (_, prompt, status, words) => {
    const { apiKey, account } = await agent('1');
    const res = await generate(apiKey, { model: 'luma/photon', prompt });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(words);
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });
  });
});

interface ImageJob {
  id: string;
  status: string;
  urls?: string[];
  predicted_usd: number;
  actual_usd: number | null;
  error?: string;
}

async function pollJob(apiKey: string, id: string, until: (job: ImageJob) => boolean): Promise<ImageJob> {
  let job: ImageJob | undefined;
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`${gateway.url}/v1/images/jobs/${id}`, { headers: { Authorization: `Bearer ${apiKey}` } });
    expect(res.status).toBe(200);
    job = (await res.json()) as ImageJob;
    if (until(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`job ${id} stayed ${job?.status}`);
}

describe('POST /v1/images/jobs and GET /v1/images/jobs/{id}', () => {
  const submit = (apiKey: string, body: Record<string, unknown>) =>
    fetch(`${gateway.url}/v1/images/jobs`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) });

  it('goes from queued to completed, holding predicted_usd and charging exactly actual_usd', async () => {
    const { apiKey, account } = await agent('1');
    const res = await submit(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'a heron [slow]', n: 2, quality: 'low' });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { id: string; status: string; predicted_usd: number };
    // Held: per image the published low price ($0.005) and the prompt's 14 bytes as 14 tokens (D33) at $2/1M, plus 5 %.
    expect(accepted).toEqual({ id: expect.stringMatching(/^imgjob_/), status: 'queued', predicted_usd: 0.010559 });
    expect(await account()).toMatchObject({ held_usd: '0.010559' });

    const running = await pollJob(apiKey, accepted.id, (job) => job.status !== 'queued');
    expect(running.actual_usd).toBeNull();
    const done = await pollJob(apiKey, accepted.id, (job) => job.status === 'completed' || job.status === 'failed');
    // Charged: the reported 4 text and 2 x 272 output tokens, plus 5 %.
    expect(done).toMatchObject({ status: 'completed', predicted_usd: 0.010559, actual_usd: 0.004578 });
    expect(done.urls).toHaveLength(2);
    for (const url of done.urls!) expect((await fetch(url)).headers.get('content-type')).toBe('image/png');
    expect(await account()).toMatchObject({ balance_usd: '0.995422', held_usd: '0.000000' });
  });

  it('fails a refused render with a reason, charging nothing; another account sees 404', async () => {
    const { apiKey, account } = await agent('1');
    const { id } = (await (await submit(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'x [reject]' })).json()) as { id: string };
    const done = await pollJob(apiKey, id, (job) => job.status === 'completed' || job.status === 'failed');
    expect(done).toMatchObject({ status: 'failed', actual_usd: null, error: expect.stringContaining('rejected') });
    expect(done.urls).toBeUndefined();
    expect(await account()).toMatchObject({ balance_usd: '1.000000', held_usd: '0.000000' });

    const other = await agent('0');
    for (const jobId of [id, 'imgjob_nope', 'crawl_x']) {
      const res = await fetch(`${gateway.url}/v1/images/jobs/${jobId}`, { headers: { Authorization: `Bearer ${other.apiKey}` } });
      expect(res.status).toBe(404);
    }
  });

  it('refuses bad input with 400 and an empty balance with 402 before anything is queued', async () => {
    const { apiKey } = await agent('0');
    const bad = await submit(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'x', size: '5000x5000' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('size');
    expect((await submit(apiKey, { model: 'openai/gpt-image-1-mini', prompt: 'x' })).status).toBe(402);
  });
});

describe('GET /v1/generations', () => {
  it('pages newest first with an opaque cursor until null, filters by kind, and shows another account nothing', async () => {
    const { apiKey } = await agent('5');
    for (const prompt of ['one', 'two', 'three']) expect((await generate(apiKey, { model: 'openai/gpt-image-1-mini', prompt, quality: 'low' })).status).toBe(200);
    const list = (query: string, key = apiKey) => fetch(`${gateway.url}/v1/generations${query}`, { headers: { Authorization: `Bearer ${key}` } });

    const prompts: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await (await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`)).json()) as {
        data: { id: string; kind: string; model: string; prompt: string; urls: string[]; created_at: string }[];
        next_cursor: string | null;
      };
      expect(page.data.length).toBeLessThanOrEqual(2);
      for (const row of page.data) expect(row).toMatchObject({ kind: 'image', model: 'openai/gpt-image-1-mini', urls: [expect.stringContaining('/files/outputs/')] });
      prompts.push(...page.data.map((row) => row.prompt));
      cursor = page.next_cursor;
    } while (cursor);
    expect(prompts).toEqual(['three', 'two', 'one']);

    expect(((await (await list('?kind=video')).json()) as { data: unknown[] }).data).toEqual([]);
    const other = await agent('0');
    expect(await (await list('', other.apiKey)).json()).toEqual({ data: [], next_cursor: null });
    const bad = await list('?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('cursor');
    expect((await list('?limit=101')).status).toBe(400);
  });
});
