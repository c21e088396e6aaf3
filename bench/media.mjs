// The media row of `npm run bench` (called by bench/run.mjs after the chat measurements, or alone
// with BENCH_ONLY=media). Memory: the workerd RSS above idle during a 100 MiB upload and during the
// copy of a 150 MiB upstream video into R2 (target: under 64 MB above idle each), and uploads of
// 20 MiB and 1 MiB to see what scales with size. Each is measured in its own fresh workerd (a new
// Miniflare, fresh state), since a workerd that has already moved big bodies reuses that memory
// and shows far less; and each has a baseline, bench/r2-probe-worker.mjs doing only the
// FixedLengthStream-into-R2 at the gateway's core in its own fresh workerd, so the gateway's own
// share (gateway − probe) is told from what the local runtime and its R2 stand-in take. Then sync
// image latency on the shared gateway against the pass-through Worker. The upstream's media routes
// are bench/media-upstream.mjs. Knobs: BENCH_MEDIA_N (100), BENCH_MEDIA_WARMUP (10).
import { rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  applyMigrations, BENCH_DIR, cpuSeconds, gatewayWorkerOptions, interleaved, log, memKb, num, percentile, ROUNDS, sequential,
  setupGateway, sleep, sorted, startMiniflare, UPSTREAM_KEY,
} from './lib.mjs';
import { VIDEO_BYTES } from './media-upstream.mjs';

const MEDIA_N = num('BENCH_MEDIA_N', 100);
const MEDIA_WARMUP = num('BENCH_MEDIA_WARMUP', 10);
const MIB = 1024 * 1024;
const UPLOAD_BYTES = 100 * MIB; // the video/mp4 upload cap
const SMALL_BYTES = 20 * MIB;
const TINY_BYTES = MIB;
const TARGET_MB = 64;
/** A 25 MiB MP3 (the transcription cap): 32 kbit/s MPEG-1 Layer III frames of 144 bytes, 6,554 s. */
const MP3_FRAME = Buffer.concat([Buffer.from([0xff, 0xfb, 0x18, 0xc0]), Buffer.alloc(140)]);
const TRANSCRIPTION_FRAMES = Math.floor((25 * MIB) / MP3_FRAME.length);
/** The scaling row's MP3: 5 MiB of the same frames. */
const SMALL_TRANSCRIPTION_FRAMES = Math.floor((5 * MIB) / MP3_FRAME.length);
const SAMPLE_MS = 25;
const IMAGE_BODY = { model: 'openai/gpt-image-1-mini', prompt: 'A lighthouse at dusk, watercolour', quality: 'low' };
const VIDEO_BODY = { model: 'openai/sora-2', prompt: 'A paper boat on a stream', duration: 4 };

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const signed1 = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(1)}` : 'n/a');
const met = (x) => (x < TARGET_MB ? 'yes' : '**no**');

/**
 * Measures the media row. `gateway` and `passthrough` are startMiniflare's `{url, pids}` (for the
 * image latency), `apiKey` the bench account's key there, `client` makeClient's, `ourPids` every
 * process of the bench (to tell other processes' CPU apart); `bundleDir`, `config`, `upstreamUrl`
 * and `stateRoot` (a directory for the fresh instances' state) start the fresh workerds. Returns
 * the markdown of the "Media" section.
 */
export async function measureMedia({ client, gateway, passthrough, apiKey, ourPids, bundleDir, config, upstreamUrl, stateRoot }) {
  const cpuStart = cpuSeconds(ourPids);
  const wallStart = Date.now();
  const fresh = freshStarter({ client, bundleDir, config, upstreamUrl, stateRoot });
  const mem = [
    { what: `upload of ${UPLOAD_BYTES / MIB} MiB`, target: true, gateway: await fresh('gateway', (g, auth, c) => gatewayUpload(g, auth, c, UPLOAD_BYTES)), probe: await fresh('probe', (p) => probePut(p, UPLOAD_BYTES)) },
    { what: `copy of a ${VIDEO_BYTES / MIB} MiB upstream video into R2`, target: true, gateway: await fresh('gateway', gatewayVideo), probe: await fresh('probe', (p) => probeCopy(p, upstreamUrl)) },
    {
      what: `transcription of a 25 MiB MP3 (multipart, measured and spooled to R2, then streamed upstream)`,
      target: true,
      gateway: await guarded(() => fresh('gateway', (g, auth) => gatewayTranscription(g, auth, TRANSCRIPTION_FRAMES))),
      probe: await fresh('probe', (p) => probeRoundTrip(p, TRANSCRIPTION_FRAMES * MP3_FRAME.length, upstreamUrl)),
    },
    {
      what: `transcription of a 5 MiB MP3 (scaling)`,
      target: false,
      gateway: await guarded(() => fresh('gateway', (g, auth) => gatewayTranscription(g, auth, SMALL_TRANSCRIPTION_FRAMES))),
      probe: await fresh('probe', (p) => probeRoundTrip(p, SMALL_TRANSCRIPTION_FRAMES * MP3_FRAME.length, upstreamUrl)),
    },
    { what: `upload of ${SMALL_BYTES / MIB} MiB (scaling)`, target: false, gateway: await fresh('gateway', (g, auth, c) => gatewayUpload(g, auth, c, SMALL_BYTES)), probe: await fresh('probe', (p) => probePut(p, SMALL_BYTES)) },
    { what: `upload of ${TINY_BYTES / MIB} MiB (scaling)`, target: false, gateway: await fresh('gateway', (g, auth, c) => gatewayUpload(g, auth, c, TINY_BYTES)), probe: await fresh('probe', (p) => probePut(p, TINY_BYTES)) },
  ];
  const image = await measureImages(client, gateway, passthrough, { Authorization: `Bearer ${apiKey}` });
  const cpuEnd = cpuSeconds(ourPids);
  const cores = os.cpus().length;
  const ours = cpuEnd.ours - cpuStart.ours + fresh.cpu;
  const foreign = Math.max(0, cpuEnd.machine - cpuStart.machine - ours) / (((Date.now() - wallStart) / 1000) * cores);
  const hwm = mem.every((m) => m.gateway.hwm && m.probe.hwm);
  const detail = (m) => `${f1(m.idleKb / 1024)} → ${f1(m.peakKb / 1024)} in ${f1(m.seconds)} s (highest sample: ${m.split})`;

  return [
    '### Media',
    '',
    '| sync image, c=1 | p50 / p99 (ms) |',
    '|:--|--:|',
    `| pass-through Worker | ${f2(image.passthrough.p50)} / ${f2(image.passthrough.p99)} |`,
    `| gateway | ${f2(image.gateway.p50)} / ${f2(image.gateway.p99)} |`,
    `| added p50, gateway − pass-through | ${image.gateway.p50 - image.passthrough.p50 >= 0 ? '+' : ''}${f2(image.gateway.p50 - image.passthrough.p50)} |`,
    '',
    `| workerd RSS above idle, each in a fresh workerd (MB) | gateway | minimal Worker | gateway − minimal | < ${TARGET_MB} MB: gateway − minimal / raw gateway |`,
    '|:--|--:|--:|--:|:--|',
    ...mem.map((m) => {
      const own = m.gateway.aboveMb - m.probe.aboveMb;
      return `| ${m.what} | ${f1(m.gateway.aboveMb)} | ${f1(m.probe.aboveMb)} | ${signed1(own)} | ${m.target ? `${met(own)} / ${met(m.gateway.aboveMb)}` : '— (no target)'} |`;
    }),
    '',
    `- Sync image: \`POST /v1/images/generations\` (${IMAGE_BODY.model}, quality low), ${MEDIA_WARMUP} warm-up + ${MEDIA_N} sequential ` +
      `keep-alive requests per target, taking turns in ${ROUNDS} rounds. The upstream answers one ${f1(image.pngBytes / 1024)} KB PNG as \`b64_json\`; ` +
      `the pass-through returns that JSON, the gateway decodes it, stores it in R2, settles, records the generation and answers its \`/files/\` link ` +
      `(checked: the link serves the same ${image.pngBytes} bytes). Gateway workerd RSS ${f1(image.rssBeforeKb / 1024)} MB before the image requests, ${f1(image.rssAfterKb / 1024)} MB after.`,
    `- Memory: each number comes from a workerd started for that one operation (a new Miniflare, fresh state on tmpfs; the gateway's with ` +
      `its migrations applied and an account registered and credited, nothing else) and stopped after it: a workerd that has already moved a big ` +
      `body reuses that memory and shows a few MB instead. "Minimal Worker" is \`r2-probe-worker.mjs\`, one R2 binding and nothing else, piping ` +
      `the body through \`new FixedLengthStream(N)\` into \`BUCKET.put\` as the gateway's PUT and video copy do: it carries what the local ` +
      `runtime and Miniflare's R2 stand-in take, so gateway − minimal is the gateway's own share. VmRSS sampled every ${SAMPLE_MS} ms, and VmHWM ` +
      `${hwm ? 'reset just before each operation (`/proc/PID/clear_refs` 5), so it is the exact peak between samples' : 'not resettable here (no write to /proc/PID/clear_refs): sampling alone'}; ` +
      `idle = VmRSS just before. Idle → peak RSS (MB): ${mem.map((m) => `${m.what}: gateway ${detail(m.gateway)}, minimal ${detail(m.probe)}`).join('; ')}.`,
    `- Gateway upload: \`POST /v1/uploads\` then one streamed PUT with Content-Length (checked: the file serves all its bytes); minimal: one ` +
      `\`PUT /put?bytes=N\` of the same body. Gateway video: \`POST /v1/videos/generations\` (${VIDEO_BODY.model}, ${VIDEO_BODY.duration} s), polled every 250 ms ` +
      `until completed; the queue consumer polls the upstream (queued, in_progress, completed, 2 s apart) and streams its ${VIDEO_BYTES} bytes ` +
      `(with Content-Length) into R2 (checked: the hosted file serves ${VIDEO_BYTES} bytes); its window includes the polls. Minimal: \`POST /copy?url=\` ` +
      `with the same upstream's \`/v1/videos/{id}/content\` of a video made ready beforehand; the stored sizes are checked.`,
    `- Gateway transcription: one streamed \`POST /v1/audio/transcriptions\` (whisper-1), multipart with the file first as the \`openai\` SDK ` +
      `sends it, ${TRANSCRIPTION_FRAMES} MP3 frames (${TRANSCRIPTION_FRAMES * MP3_FRAME.length} bytes; the scaling row ${SMALL_TRANSCRIPTION_FRAMES}, ` +
      `${SMALL_TRANSCRIPTION_FRAMES * MP3_FRAME.length} bytes) written 1 MiB at a time with Content-Length: the gateway reads the parts and measures ` +
      `the frames as the body arrives (into one reused buffer), copying the body into R2 by one \`put\` as it goes, holds, then streams the file ` +
      `back from R2 by range through a multipart body to the upstream (checked: the upstream's transcript names every byte); minimal: ` +
      `\`PUT /roundtrip\`, the same bytes piped into R2, read back and piped in a multipart body to the same upstream (checked the same way).`,
    `- Other processes used ${(foreign * 100).toFixed(0)} % of the machine's CPU during the media measurements${foreign > 0.1 ? ' (a busy machine: expect noise).' : '.'}`,
  ].join('\n');
}

/** The probe Worker's options: one R2 bucket, and the upstream key for its copy's fetch. */
function probeWorkerOptions(config) {
  return {
    modules: [{ type: 'ESModule', path: path.join(BENCH_DIR, 'r2-probe-worker.mjs') }],
    modulesRoot: BENCH_DIR,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: { OPENAI_API_KEY: UPSTREAM_KEY },
    r2Buckets: ['BUCKET'],
  };
}

/**
 * `fresh(kind, measure)`: starts a new Miniflare of the gateway (migrations applied, an account
 * registered and credited) or of the probe, each on a new state directory, runs
 * `measure(instance, auth, client)`, then stops it and removes its state. `fresh.cpu`: their CPU seconds.
 */
function freshStarter({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  let n = 0;
  const fresh = async (kind, measure) => {
    const label = `fresh-${kind}-${++n}`;
    const dir = path.join(stateRoot, label);
    const options = kind === 'gateway' ? gatewayWorkerOptions(bundleDir, config, upstreamUrl) : probeWorkerOptions(config);
    const instance = await startMiniflare(label, options, dir);
    try {
      let auth = {};
      if (kind === 'gateway') {
        await applyMigrations(instance.mf, config);
        auth = { Authorization: `Bearer ${(await setupGateway(client, instance.url)).apiKey}` };
      }
      return await measure(instance, auth, client);
    } finally {
      fresh.cpu += cpuSeconds(instance.pids).ours;
      await instance.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  };
  fresh.cpu = 0;
  return fresh;
}

async function measureImages(client, gateway, passthrough, auth) {
  const rss = () => gateway.pids.reduce((total, pid) => total + memKb(pid, 'VmRSS'), 0);
  const rssBeforeKb = rss();
  const targets = [
    { key: 'passthrough', name: 'pass-through Worker (image)', url: `${passthrough.url}/v1/images/generations`, headers: {} },
    { key: 'gateway', name: 'gateway (image)', url: `${gateway.url}/v1/images/generations`, headers: auth },
  ];
  // Sanity: the pass-through relays the PNG; the gateway answers a link that serves those bytes.
  const direct = await client.request(targets[0].url, IMAGE_BODY, targets[0].headers);
  const b64 = direct.status === 200 ? JSON.parse(direct.body).data?.[0]?.b64_json : undefined;
  if (!b64) throw new Error(`pass-through image: ${direct.status} ${direct.body.slice(0, 300)}`);
  const png = Buffer.from(b64, 'base64');
  const hosted = await client.request(targets[1].url, IMAGE_BODY, targets[1].headers);
  const url = hosted.status === 200 ? JSON.parse(hosted.body).data?.[0]?.url : undefined;
  if (!url) throw new Error(`gateway image: ${hosted.status} ${hosted.body.slice(0, 300)}`);
  const file = await send(url);
  if (file.status !== 200 || !file.body.equals(png)) throw new Error(`gateway image ${url}: ${file.status}, ${file.body.length} bytes, not the upstream's ${png.length}`);

  log(`media: sync image, ${MEDIA_WARMUP} warm-up + ${MEDIA_N} per target in ${ROUNDS} rounds`);
  for (const t of targets) await sequential(client, t, IMAGE_BODY, 0, MEDIA_WARMUP);
  const runs = await interleaved(targets, ROUNDS, (t) => sequential(client, t, IMAGE_BODY, Math.ceil(MEDIA_N / ROUNDS)));
  const stats = (key) => {
    const total = sorted(runs.get(key).flatMap((r) => r.total));
    return { p50: percentile(total, 50), p99: percentile(total, 99) };
  };
  return { passthrough: stats('passthrough'), gateway: stats('gateway'), pngBytes: png.length, rssBeforeKb, rssAfterKb: rss() };
}

async function gatewayUpload(gateway, auth, client, bytes) {
  const reserved = await client.request(`${gateway.url}/v1/uploads`, { content_type: 'video/mp4', content_length: bytes }, auth);
  if (reserved.status !== 200) throw new Error(`POST /v1/uploads: ${reserved.status} ${reserved.body.slice(0, 300)}`);
  const { upload_url: uploadUrl, public_url: publicUrl } = JSON.parse(reserved.body);
  log(`media: gateway, PUT of ${bytes / MIB} MiB to the upload URL`);
  const meter = memoryMeter(gateway.pids);
  const started = Date.now();
  const put = await send(uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'video/mp4', 'Content-Length': bytes }, bytes });
  const seconds = (Date.now() - started) / 1000;
  const memory = meter.stop();
  if (put.status !== 200) throw new Error(`PUT upload_url: ${put.status} ${put.body.toString('utf8').slice(0, 300)}`);
  await expectSize(publicUrl, bytes, 'the upload');
  return { ...memory, seconds };
}

/** A row that failed shows n/a (and why, in the log) instead of ending the media section. */
async function guarded(measure) {
  try {
    return await measure();
  } catch (err) {
    log(`media: ${err instanceof Error ? err.message : String(err)}`);
    return { idleKb: NaN, peakKb: NaN, aboveMb: NaN, hwm: true, split: 'n/a', seconds: NaN };
  }
}

/** One multipart transcription of `totalFrames` MP3 frames, the file part first. */
async function gatewayTranscription(gateway, auth, totalFrames) {
  const boundary = '----benchtranscription';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}--\r\n`);
  const fileBytes = totalFrames * MP3_FRAME.length;
  const framesPerChunk = Math.floor(MIB / MP3_FRAME.length);
  const chunk = Buffer.concat(Array.from({ length: framesPerChunk }, () => MP3_FRAME));
  log(`media: gateway, transcription of a ${fileBytes}-byte MP3`);
  const meter = memoryMeter(gateway.pids);
  const started = Date.now();
  const res = await new Promise((resolve, reject) => {
    const headers = { ...auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': head.length + fileBytes + tail.length };
    const req = http.request(`${gateway.url}/v1/audio/transcriptions`, { method: 'POST', headers, agent: false }, (answer) => {
      const chunks = [];
      answer.on('data', (c) => chunks.push(c));
      answer.on('end', () => resolve({ status: answer.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      answer.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    let frames = 0;
    const write = () => {
      while (frames < totalFrames) {
        const n = Math.min(framesPerChunk, totalFrames - frames);
        frames += n;
        if (!req.write(n === framesPerChunk ? chunk : chunk.subarray(0, n * MP3_FRAME.length))) return void req.once('drain', write);
      }
      req.end(tail);
    };
    write();
  });
  const seconds = (Date.now() - started) / 1000;
  const memory = meter.stop();
  const text = res.status === 200 ? JSON.parse(res.body).text : undefined;
  if (text !== `transcript of ${fileBytes} bytes`) throw new Error(`transcription: ${res.status} ${res.body.slice(0, 300)}`);
  return { ...memory, seconds };
}

async function gatewayVideo(gateway, auth, client) {
  log(`media: gateway, video render, copy of ${VIDEO_BYTES / MIB} MiB into R2 by the queue consumer`);
  const meter = memoryMeter(gateway.pids);
  const started = Date.now();
  const submitted = await client.request(`${gateway.url}/v1/videos/generations`, VIDEO_BODY, auth);
  if (submitted.status !== 202) throw new Error(`POST /v1/videos/generations: ${submitted.status} ${submitted.body.slice(0, 300)}`);
  const { id } = JSON.parse(submitted.body);
  let job;
  for (;;) {
    const polled = await send(`${gateway.url}/v1/videos/generations/${id}`, { headers: auth });
    job = JSON.parse(polled.body.toString('utf8'));
    if (polled.status !== 200 || job.status === 'completed' || job.status === 'failed') break;
    if (Date.now() - started > 120_000) throw new Error(`video job ${id} still ${job.status} after 120 s`);
    await sleep(250);
  }
  const seconds = (Date.now() - started) / 1000;
  const memory = meter.stop();
  if (job.status !== 'completed' || !job.url) throw new Error(`video job ${id}: ${JSON.stringify(job).slice(0, 300)}`);
  await expectSize(job.url, VIDEO_BYTES, 'the video');
  return { ...memory, seconds };
}

/** The minimal Worker's transcription: the PUT into R2, read back and sent to the upstream (`/roundtrip`). */
async function probeRoundTrip(probe, bytes, upstreamUrl) {
  log(`media: minimal Worker, PUT of ${bytes / MIB} MiB into R2, read back and sent upstream`);
  const meter = memoryMeter(probe.pids);
  const started = Date.now();
  const url = `${probe.url}/roundtrip?bytes=${bytes}&url=${encodeURIComponent(`${upstreamUrl}/v1/audio/transcriptions`)}`;
  const res = await send(url, { method: 'PUT', headers: { 'Content-Type': 'audio/mpeg', 'Content-Length': bytes }, bytes });
  const answer = res.status === 200 ? JSON.parse(res.body.toString('utf8')) : undefined;
  if (answer?.text !== `transcript of ${bytes} bytes`) throw new Error(`minimal Worker round trip: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
  return probeResult(res, bytes, meter, started);
}

async function probePut(probe, bytes) {
  log(`media: minimal Worker, PUT of ${bytes / MIB} MiB into R2`);
  const meter = memoryMeter(probe.pids);
  const started = Date.now();
  const put = await send(`${probe.url}/put?bytes=${bytes}`, { method: 'PUT', headers: { 'Content-Type': 'video/mp4', 'Content-Length': bytes }, bytes });
  return probeResult(put, bytes, meter, started);
}

async function probeCopy(probe, upstreamUrl) {
  // A video the upstream has ready (created, then polled to `completed`), so the window is the copy.
  const headers = { Authorization: `Bearer ${UPSTREAM_KEY}` };
  const form = new FormData();
  for (const [k, v] of Object.entries({ model: 'sora-2', prompt: VIDEO_BODY.prompt, seconds: String(VIDEO_BODY.duration), size: '1280x720' })) form.set(k, v);
  const { id } = await (await fetch(`${upstreamUrl}/v1/videos`, { method: 'POST', headers, body: form })).json();
  for (let i = 0; i < 3; i++) await (await fetch(`${upstreamUrl}/v1/videos/${id}`, { headers })).json();
  log(`media: minimal Worker, copy of ${VIDEO_BYTES / MIB} MiB from the upstream into R2`);
  const meter = memoryMeter(probe.pids);
  const started = Date.now();
  const copied = await send(`${probe.url}/copy?url=${encodeURIComponent(`${upstreamUrl}/v1/videos/${id}/content`)}`, { method: 'POST' });
  return probeResult(copied, VIDEO_BYTES, meter, started);
}

function probeResult(res, bytes, meter, started) {
  const seconds = (Date.now() - started) / 1000;
  const memory = meter.stop();
  const size = res.status === 200 ? JSON.parse(res.body.toString('utf8')).size : undefined;
  if (size !== bytes) throw new Error(`minimal Worker: ${res.status} ${res.body.toString('utf8').slice(0, 300)}, expected ${bytes} bytes stored`);
  return { ...memory, seconds };
}

/**
 * Peak VmRSS of `pids` (summed) from now until `stop()`: sampled every SAMPLE_MS, and VmHWM after
 * resetting it (writing 5 to /proc/PID/clear_refs), so a peak between samples counts too. `split`:
 * RssAnon / RssFile / RssShmem of the highest sample, above their idle values (MB).
 */
function memoryMeter(pids) {
  const fields = ['VmRSS', 'RssAnon', 'RssFile', 'RssShmem'];
  const read = () => Object.fromEntries(fields.map((f) => [f, pids.reduce((total, pid) => total + memKb(pid, f), 0)]));
  let hwm = pids.length > 0;
  for (const pid of pids) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      hwm = false;
    }
  }
  const idle = read();
  let top = idle;
  const sample = () => {
    const now = read();
    if (now.VmRSS > top.VmRSS) top = now;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const peakKb = Math.max(top.VmRSS, hwm ? pids.reduce((total, pid) => total + memKb(pid, 'VmHWM'), 0) : 0);
      const split = fields.slice(1).map((f) => `${f.slice(3).toLowerCase()} ${signed1((top[f] - idle[f]) / 1024)}`).join(', ');
      return { idleKb: idle.VmRSS, peakKb, aboveMb: (peakKb - idle.VmRSS) / 1024, hwm, split };
    },
  };
}

/** GET `url` with `Range: bytes=0-0`: the total in Content-Range must be `size`. */
async function expectSize(url, size, what) {
  const res = await send(url, { headers: { Range: 'bytes=0-0' } });
  const total = /\/(\d+)$/.exec(res.headers['content-range'] ?? '')?.[1];
  if (res.status !== 206 || Number(total) !== size) throw new Error(`${what} at ${url}: ${res.status}, Content-Range ${res.headers['content-range']}, expected total ${size}`);
}

/** One request on its own connection; with `bytes`, a body of that many bytes streamed 1 MiB at a time. */
function send(url, { method = 'GET', headers = {}, bytes } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (bytes === undefined) return void req.end();
    const chunk = Buffer.alloc(MIB, 0x5a);
    const first = Buffer.from(chunk);
    // The gateway takes an upload whose first bytes are its type's: an MP4's ftyp box.
    first.writeUInt32BE(24, 0);
    first.write('ftypisom', 4, 'latin1');
    let sent = 0;
    const write = () => {
      while (sent < bytes) {
        const n = Math.min(MIB, bytes - sent);
        const source = sent === 0 ? first : chunk;
        sent += n;
        if (!req.write(n === MIB ? source : source.subarray(0, n))) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}
