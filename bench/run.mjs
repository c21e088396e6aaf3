// `npm run bench`: what the gateway adds over a direct upstream call and over a trivial
// pass-through Worker, side by side in one run, on the same runtime (workerd through Miniflare's
// API, without `wrangler dev`'s local proxy). Prints one markdown table and writes bench/results.md;
// the Portkey gateway (bench/portkey.mjs) is a row of the chat table. Then the edge section
// (bench/edge.mjs: a distant account Durable Object, the last byte → [DONE] time, bundle size and
// cold start), the hot-account section (bench/hot.mjs: c=64 on one account against c=64 over 64
// accounts, Durable Object calls per request, the money checked) and the media row (bench/media.mjs): sync images, and memory during an upload and a
// video copy, each in a fresh workerd beside a minimal R2 Worker (bench/r2-probe-worker.mjs).
//
// Knobs (environment): BENCH_LAT_N (2000), BENCH_LAT_WARMUP (200), BENCH_STREAM_N (200),
// BENCH_STREAM_WARMUP (20), BENCH_RPS_SECONDS (10), BENCH_RPS_WARMUP_SECONDS (2),
// BENCH_CONCURRENCY (32), BENCH_ROUNDS (4), BENCH_RPS_ROUNDS (2), CHUNKS (5), CHUNK_DELAY_MS (10),
// BENCH_PROJECT_ROOT (the checkout to build; default the one this file is in), BENCH_ONLY=chat,formats,breaker,member,edge,hot,media
// (any of the seven sections; the others keep their part of bench/results.md), BENCH_MEDIA_N (100),
// BENCH_MEDIA_WARMUP (10), and edge.mjs's. See bench/README.md.
import { existsSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import {
  BENCH_DIR, CHAT_BODY, CHUNKS, CHUNK_DELAY_MS, CONCURRENCY, LAT_N, LAT_WARMUP, ROOT, ROUNDS, RPS_ROUNDS, RPS_SECONDS, passthroughWorkerOptions,
  RPS_WARMUP_SECONDS, STREAM_N, STREAM_WARMUP, UPSTREAM_KEY, ACCOUNT_IN_WORKER_ENTRY, applyMigrations, buildGateway, cannon, cleanups,
  cpuSeconds, gatewayWorkerOptions, interleaved, log, makeClient, memKb, percentile, rssSampler, sequential, setupGateway,
  runMain, sorted, startMiniflare, startUpstream,
} from './lib.mjs';
import { measureBreaker } from './breaker.mjs';
import { measureEdge } from './edge.mjs';
import { measureFormats } from './formats.mjs';
import { measureHot } from './hot.mjs';
import { measureMember } from './member.mjs';
import { measureMedia } from './media.mjs';
import { startPortkey } from './portkey.mjs';

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(2)}` : 'n/a');

const SECTIONS = ['chat', 'formats', 'breaker', 'member', 'edge', 'hot', 'media'];

async function main() {
  const started = Date.now();
  const only = new Set((process.env.BENCH_ONLY || SECTIONS.join(',')).split(',').map((x) => x.trim()).filter(Boolean));
  for (const x of only) if (!SECTIONS.includes(x)) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY}: known sections are ${SECTIONS.join(', ')}`);
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });

  log('bundling the gateway (wrangler deploy --dry-run)');
  const bundleDir = buildGateway(path.join(BENCH_DIR, '.out', 'gateway'));

  const upstream = await startUpstream();
  log(`upstream on ${upstream.url} (pid ${upstream.pid})`);

  const persistDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  cleanups.push(() => rmSync(persistDir, { recursive: true, force: true }));
  const memoryDir = existsSync('/dev/shm') ? mkdtempSync('/dev/shm/gateway-bench-') : path.join(persistDir, 'memory');
  cleanups.push(() => rmSync(memoryDir, { recursive: true, force: true }));
  const client = makeClient();
  cleanups.push(() => client.close());
  const results = {};
  if (only.has('chat') || only.has('media')) Object.assign(results, await chatAndMedia({ only, config, bundleDir, upstream, persistDir, memoryDir, client }));
  if (only.has('formats')) {
    log('formats: each chat wire format on the same upstream, passed through and translated');
    results.formats = await measureFormats({ client, bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir });
  }
  if (only.has('breaker')) {
    log('breaker: a request whose first route hangs, with the breaker off, until it opens, and once open');
    results.breaker = await measureBreaker({ client, bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir });
  }
  if (only.has('member')) {
    log('member: an organization member against a plain account, c=1 interleaved, then the money');
    results.member = await measureMember({ client, bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir });
    results.member += `\n- Run ${new Date().toISOString()}${only.has('chat') ? ', with the chat measurements above' : ' (`BENCH_ONLY`)'}${process.env.BENCH_PROJECT_ROOT ? `; gateway built from ${ROOT} (BENCH_PROJECT_ROOT)` : ''}.`;
  }
  if (only.has('edge')) {
    log('edge: a distant account Durable Object, last byte → [DONE], bundle size and cold start');
    results.edge = await measureEdge({ client, bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir });
  }
  if (only.has('hot')) {
    log('hot account: c=64 on one account against c=64 over 64 accounts');
    results.hot = await measureHot({ bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir });
    results.hot += `\n- Run ${new Date().toISOString()}${only.has('chat') ? ', with the chat measurements above' : ' (`BENCH_ONLY`)'}${process.env.BENCH_PROJECT_ROOT ? `; gateway built from ${ROOT} (BENCH_PROJECT_ROOT)` : ''}.`;
  }
  if (results.media) {
    results.media += `\n- Run ${new Date().toISOString()}${only.has('chat') ? ', with the chat measurements above' : ' alone (`BENCH_ONLY`); the chat tables above are from an earlier run'}` +
      `${process.env.BENCH_PROJECT_ROOT ? `; gateway built from ${ROOT} (BENCH_PROJECT_ROOT)` : ''}.\n`;
  }
  if (results.edge) {
    results.edge += `\n- Run ${new Date().toISOString()}${only.has('chat') ? ', with the chat measurements above' : ' (`BENCH_ONLY`)'}${process.env.BENCH_PROJECT_ROOT ? `; gateway built from ${ROOT} (BENCH_PROJECT_ROOT)` : ''}.`;
  }

  // A section not run keeps its part of the previous bench/results.md.
  const file = path.join(BENCH_DIR, 'results.md');
  const previous = existsSync(file) ? splitSections(readFileSync(file, 'utf8')) : {};
  const parts = SECTIONS.map((k) => results[k] ?? previous[k]).filter(Boolean).map((x) => x.trimEnd());
  const report = ['## Gateway benchmark', '', parts.join('\n\n'), ''].join('\n');
  process.stdout.write(`\n${SECTIONS.filter((k) => results[k]).map((k) => results[k].trimEnd()).join('\n\n')}\n`);
  writeFileSync(file, report);
  log(`wrote bench/results.md (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

/** bench/results.md by section: chat (the top, up to the first `### Formats`, `### Breaker`, `### Member`, `### Edge`, `### Hot` or `### Media`), formats, breaker, member, edge, hot, media. */
function splitSections(text) {
  const body = text.replace(/^## Gateway benchmark\s*/, '');
  const out = {};
  for (const [i, part] of body.split(/\n(?=### (?:Formats|Breaker|Member|Edge|Hot|Media)\b)/).entries()) {
    const key = part.startsWith('### Formats') ? 'formats' : part.startsWith('### Breaker') ? 'breaker' : part.startsWith('### Member') ? 'member' : part.startsWith('### Edge') ? 'edge' : part.startsWith('### Hot') ? 'hot' : part.startsWith('### Media') ? 'media' : i === 0 ? 'chat' : null;
    if (key && part.trim()) out[key] = part;
  }
  return out;
}

/** The chat table (with Portkey) and the media row, on one pass-through, one gateway and one on disk. */
async function chatAndMedia({ only, config, bundleDir, upstream, persistDir, memoryDir, client }) {
  const passthrough = await startMiniflare(
    'passthrough',
    passthroughWorkerOptions(config, upstream.url),
    path.join(persistDir, 'passthrough'),
  );
  log(`pass-through Worker on ${passthrough.url} (workerd pid ${passthrough.pids.join(',')})`);

  // Local Durable Object storage is SQLite on the state directory, and each commit syncs it to
  // disk; a deployed Durable Object replicates its writes instead. The gateway row keeps its state
  // in memory (tmpfs) so it measures the gateway rather than this machine's disk; the disk row
  // shows what the local sync adds.
  const gateway = await startMiniflare('gateway', gatewayWorkerOptions(bundleDir, config, upstream.url), memoryDir);
  log(`gateway on ${gateway.url} (workerd pid ${gateway.pids.join(',')}, state in ${memoryDir})`);
  const onDisk = await startMiniflare('gateway-disk', gatewayWorkerOptions(bundleDir, config, upstream.url), path.join(persistDir, 'gateway'));
  log(`gateway with state on disk on ${onDisk.url} (workerd pid ${onDisk.pids.join(',')})`);

  const accounts = {};
  for (const [key, instance] of [['gateway', gateway], ['disk', onDisk]]) {
    const migrations = await applyMigrations(instance.mf, config);
    log(`${key}: applied D1 migrations: ${migrations.join(', ')}`);
    accounts[key] = await setupGateway(client, instance.url);
    log(`${key}: registered account ${accounts[key].accountId}, credited $100000`);
  }

  const upstreamBody = { ...CHAT_BODY };
  const upstreamStreamBody = { ...CHAT_BODY, stream: true, stream_options: { include_usage: true } };
  const portkey = only.has('chat') ? await startPortkey(client, upstream.url) : null;
  if (portkey) log(`Portkey gateway ${readVersion('@portkey-ai/gateway')} on ${portkey.url} (pid ${portkey.pid}, @hono/node-server ${readVersion('@hono/node-server')})`);
  const targets = [
    { key: 'direct', name: 'direct upstream', url: `${upstream.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${UPSTREAM_KEY}` }, body: upstreamBody, streamBody: upstreamStreamBody, pids: [], cpuPids: [upstream.pid] },
    { key: 'passthrough', name: 'pass-through Worker', url: `${passthrough.url}/v1/chat/completions`, headers: {}, body: upstreamBody, streamBody: upstreamStreamBody, pids: passthrough.pids },
    { key: 'gateway', name: 'gateway', url: `${gateway.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${accounts.gateway.apiKey}` }, body: CHAT_BODY, streamBody: { ...CHAT_BODY, stream: true }, pids: gateway.pids },
    { key: 'disk', name: 'gateway, state on disk', url: `${onDisk.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${accounts.disk.apiKey}` }, body: CHAT_BODY, streamBody: { ...CHAT_BODY, stream: true }, pids: onDisk.pids },
    ...(portkey ? [{ key: 'portkey', name: `Portkey gateway ${readVersion('@portkey-ai/gateway')} (Node)`, url: portkey.url, headers: portkey.headers, body: upstreamBody, streamBody: upstreamStreamBody, pids: [portkey.pid] }] : []),
  ];

  // Sanity: each target answers a completion and a stream; the gateway bills it.
  for (const t of targets) {
    const res = await client.request(t.url, t.body, t.headers);
    if (res.status !== 200 || !JSON.parse(res.body).choices) throw new Error(`${t.name}: ${res.status} ${res.body.slice(0, 300)}`);
    if (t.headers.Authorization?.startsWith('Bearer ak-') && !res.headers['x-service-cost']) throw new Error('gateway: no X-Service-Cost header');
    const s = await client.request(t.url, t.streamBody, t.headers);
    if (s.status !== 200 || !s.body.includes('data: [DONE]')) throw new Error(`${t.name} (stream): ${s.status} ${s.body.slice(0, 300)}`);
  }

  const chat = only.has('chat') ? await measureChat({ client, targets, upstream, passthrough, gateway, onDisk, memoryDir, portkey, bundleDir, config }) : null;
  if (portkey) await portkey.stop();

  let media = null;
  if (only.has('media')) {
    log('media: upload and video copy, each in a fresh workerd beside a minimal Worker; sync image on the gateway');
    media = await measureMedia({
      client, gateway, passthrough, apiKey: accounts.gateway.apiKey, ourPids: [process.pid, upstream.pid, ...passthrough.pids, ...gateway.pids, ...onDisk.pids],
      bundleDir, config, upstreamUrl: upstream.url, stateRoot: memoryDir,
    });
  }
  for (const instance of [passthrough, gateway, onDisk]) await instance.stop();
  return { chat, media };
}

/** The chat measurements (c=1, streaming, throughput, memory) and their tables and notes. */
async function measureChat({ client, targets, upstream, passthrough, gateway, onDisk, memoryDir, portkey, bundleDir, config }) {
  const idle = Object.fromEntries(targets.map((t) => [t.key, t.pids.reduce((sum, pid) => sum + memKb(pid, 'VmRSS'), 0)]));
  const samplers = Object.fromEntries(targets.map((t) => [t.key, rssSampler(t.pids)]));
  const upstreamSampler = rssSampler([upstream.pid]);

  const ourPids = [process.pid, upstream.pid, ...passthrough.pids, ...gateway.pids, ...onDisk.pids, ...(portkey ? [portkey.pid] : [])];
  const cpuStart = cpuSeconds(ourPids);
  const wallStart = Date.now();
  const results = Object.fromEntries(targets.map((t) => [t.key, {}]));
  log(`warm-up: ${LAT_WARMUP} requests and ${STREAM_WARMUP} streams per target`);
  for (const t of targets) {
    await sequential(client, t, t.body, 0, LAT_WARMUP);
    await sequential(client, t, t.streamBody, 0, STREAM_WARMUP);
  }

  log(`c=1 non-streamed latency: ${LAT_N} requests per target, targets taking turns in ${ROUNDS} rounds`);
  const lat = await interleaved(targets, ROUNDS, (t) => sequential(client, t, t.body, Math.ceil(LAT_N / ROUNDS)));
  log(`streaming: ${STREAM_N} streams per target, in ${ROUNDS} rounds`);
  const streams = await interleaved(targets, ROUNDS, (t) => sequential(client, t, t.streamBody, Math.ceil(STREAM_N / ROUNDS)));
  for (const t of targets) {
    const total = sorted(lat.get(t.key).flatMap((r) => r.total));
    results[t.key].lat = { p50: percentile(total, 50), p99: percentile(total, 99) };
    const ttfb = sorted(streams.get(t.key).flatMap((r) => r.ttfb));
    const full = sorted(streams.get(t.key).flatMap((r) => r.total));
    results[t.key].stream = { ttfbP50: percentile(ttfb, 50), ttfbP99: percentile(ttfb, 99), fullP50: percentile(full, 50), fullP99: percentile(full, 99) };
  }

  const slice = RPS_SECONDS / RPS_ROUNDS;
  log(`throughput at c=${CONCURRENCY}: ${RPS_WARMUP_SECONDS} s warm-up, then ${RPS_SECONDS} s per target in ${RPS_ROUNDS} rounds of ${slice} s`);
  for (const t of targets) if (RPS_WARMUP_SECONDS > 0) await cannon(t, t.body, RPS_WARMUP_SECONDS);
  // CPU per request: the target's own processes (workerd; Portkey's Node; for direct, the upstream) over its load rounds.
  const cpu = Object.fromEntries(targets.map((t) => [t.key, 0]));
  const rps = await interleaved(targets, RPS_ROUNDS, async (t) => {
    const before = cpuSeconds(t.cpuPids ?? t.pids).ours;
    const r = await cannon(t, t.body, slice);
    cpu[t.key] += cpuSeconds(t.cpuPids ?? t.pids).ours - before;
    return r;
  });
  for (const t of targets) {
    const runs = rps.get(t.key);
    const total = runs.reduce((a, r) => a + r.requests.total, 0);
    const failed = runs.reduce((a, r) => a + r.non2xx + r.errors + r.timeouts, 0);
    results[t.key].rps = {
      cpuUs: (cpu[t.key] / total) * 1e6,
      rps: total / runs.reduce((a, r) => a + (r.duration || slice), 0),
      failed,
      p50: Math.max(...runs.map((r) => r.latency.p50)),
      p99: Math.max(...runs.map((r) => r.latency.p99)),
    };
    if (failed) log(`  ${t.name}: ${failed} failed requests under load`);
  }
  for (const t of targets) {
    results[t.key].peakKb = samplers[t.key].peakKb();
    samplers[t.key].stop();
  }
  const cpuEnd = cpuSeconds(ourPids);
  const wallSeconds = (Date.now() - wallStart) / 1000;
  const cores = os.cpus().length;
  const foreignShare = Math.max(0, (cpuEnd.machine - cpuStart.machine) - (cpuEnd.ours - cpuStart.ours)) / (wallSeconds * cores);
  const upstreamPeakKb = upstreamSampler.peakKb();
  upstreamSampler.stop();
  log('memory floor: a Worker that answers a constant, under the same number of requests');
  const floor = await measureMemoryFloor(client, memoryDir);
  log('CPU split: the gateway with its account calls answered in the Worker, under the same load');
  const workerSide = await measureWorkerSide(client, config, upstream, memoryDir);

  // -------------------------------------------------------------------------------------------
  const d = results.direct;
  const rows = targets.map((t) => {
    const r = results[t.key];
    const isDirect = t.key === 'direct';
    return [
      t.name,
      `${f2(r.lat.p50)} / ${f2(r.lat.p99)}`,
      isDirect ? '—' : `${signed(r.lat.p50 - d.lat.p50)} / ${signed(r.lat.p99 - d.lat.p99)}`,
      f2(r.stream.ttfbP50),
      f2(r.stream.fullP50),
      `${Math.round(r.rps.rps)}${r.rps.failed ? ` (${r.rps.failed} failed)` : ''}`,
      `${Math.round(r.rps.cpuUs)}${isDirect ? ' (the upstream)' : ''}`,
      isDirect ? '— (no workerd)' : `${f1(r.peakKb / 1024)} (idle ${f1(idle[t.key] / 1024)})`,
    ];
  });
  const header = [
    'target',
    'c=1 latency p50 / p99 (ms)',
    'added over direct p50 / p99 (ms)',
    'stream TTFB p50 (ms)',
    'full stream p50 (ms)',
    `req/s at c=${CONCURRENCY}`,
    `CPU per request at c=${CONCURRENCY} (µs)`,
    'peak RSS (MB)',
  ];
  const table = [
    `| ${header.join(' | ')} |`,
    `|${header.map((h, i) => (i === 0 ? ':--' : '--:')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

  const g = results.gateway;
  const p = results.passthrough;
  const checks = [
    { what: 'p50 added latency, gateway − pass-through', value: g.lat.p50 - p.lat.p50, limit: 1, unit: 'ms', ok: g.lat.p50 - p.lat.p50 <= 1 },
    { what: 'p99 added latency, gateway − pass-through', value: g.lat.p99 - p.lat.p99, limit: 3, unit: 'ms', ok: g.lat.p99 - p.lat.p99 <= 3 },
    { what: 'stream TTFB p50, gateway − pass-through', value: g.stream.ttfbP50 - p.stream.ttfbP50, limit: 1, unit: 'ms', ok: g.stream.ttfbP50 - p.stream.ttfbP50 <= 1 },
    // Retired by issue #14: one workerd thread runs the Worker and its Durable Objects here, which production never does.
    { what: `req/s at c=${CONCURRENCY}, gateway ÷ pass-through`, value: g.rps.rps / p.rps.rps, limit: null, unit: '', ok: null },
    // Issue #14: at most 300 µs above the pass-through, the Worker side and the Durable Object side reported apart.
    { what: `CPU per request at c=${CONCURRENCY}, gateway − pass-through`, value: g.rps.cpuUs - p.rps.cpuUs, limit: 300, unit: 'µs', ok: g.rps.cpuUs - p.rps.cpuUs <= 300 },
    { what: '… of which the Worker side: the gateway with its account calls answered in the Worker, − pass-through', value: workerSide.cpuUs - p.rps.cpuUs, limit: null, unit: 'µs', ok: null },
    { what: '… of which the account Durable Object and the calls to it: gateway − the row above', value: g.rps.cpuUs - workerSide.cpuUs, limit: null, unit: 'µs', ok: null },
  ];
  // Issue #14: below Portkey on every figure (above it in requests per second).
  const k = results.portkey;
  const vsPortkey = k
    ? [
      ['added latency p50 over direct', g.lat.p50 - d.lat.p50, k.lat.p50 - d.lat.p50, 'ms'],
      ['added latency p99 over direct', g.lat.p99 - d.lat.p99, k.lat.p99 - d.lat.p99, 'ms'],
      ['stream TTFB p50', g.stream.ttfbP50, k.stream.ttfbP50, 'ms'],
      [`req/s at c=${CONCURRENCY}`, g.rps.rps, k.rps.rps, 'req/s'],
      [`CPU per request at c=${CONCURRENCY}`, g.rps.cpuUs, k.rps.cpuUs, 'µs'],
      ['peak RSS', g.peakKb / 1024, k.peakKb / 1024, 'MB', idle.gateway / 1024, idle.portkey / 1024],
    ].map(([what, ours, theirs, unit, oursIdle, theirsIdle]) => {
      const higherIsBetter = unit === 'req/s';
      const fmt = (x, base) =>
        unit === 'ms' ? `${what.startsWith('added') ? signed(x) : f2(x)} ms` : `${unit === 'MB' ? f1(x) : Math.round(x)} ${unit}${base === undefined ? '' : ` (idle ${f1(base)})`}`;
      return `| ${what}, gateway vs Portkey | ${fmt(ours, oursIdle)} | ${higherIsBetter ? 'above' : 'below'} ${fmt(theirs, theirsIdle)} | ${(higherIsBetter ? ours > theirs : ours < theirs) ? 'yes' : '**no**'} |`;
    })
    : [];
  // Not a target: what any Worker's workerd reaches under the same load, so the row above is read against it.
  const floorRow = `| peak RSS of a Worker that answers a constant (no upstream, no state), same load: workerd's own floor | ${f1(floor.peakKb / 1024)} MB (idle ${f1(floor.idleKb / 1024)}) | — | — |`;
  const targetsTable = [
    '| target | measured | limit | met |',
    '|:--|--:|--:|:--|',
    ...checks.map((c) =>
      c.unit === 'ms' || c.unit === 'µs'
        ? `| ${c.what} | ${c.unit === 'ms' ? signed(c.value) : `+${Math.round(c.value)}`} ${c.unit} | ${c.limit === null ? '—' : `≤ ${c.limit} ${c.unit}`} | ${c.ok === null ? '—' : c.ok ? 'yes' : '**no**'} |`
        : `| ${c.what} | ${(c.value * 100).toFixed(0)} % | ${c.limit === null ? 'retired (#14)' : `≥ ${c.limit * 100} %`} | ${c.ok === null ? '—' : c.ok ? 'yes' : '**no**'} |`,
    ),
    ...vsPortkey,
    floorRow,
  ].join('\n');

  const cpus = os.cpus();
  const notes = [
    `Run ${new Date().toISOString()} on ${cpus.length} × ${cpus[0]?.model?.trim() ?? 'CPU'}, Node ${process.version}, ` +
      `workerd via Miniflare ${readVersion('miniflare')} (workerd ${readVersion('workerd')}), wrangler ${readVersion('wrangler')}.`,
    `Both Workers run on workerd through Miniflare's API (one Miniflare, so one workerd process, each), ` +
      `requests straight to each Worker's own socket (\`unsafeDirectSockets\`): no \`wrangler dev\` proxy, no Miniflare entry worker. ` +
      `The gateway is the \`wrangler deploy --dry-run\` bundle with its D1, R2, Queue and SQLite Durable Object bindings. ` +
      `Its state is on tmpfs (${memoryDir.startsWith('/dev/shm') ? '/dev/shm' : 'not available here: local disk'}): local Durable Object storage syncs each commit to disk, ` +
      `which a deployed Durable Object does not do (it replicates instead); the "state on disk" row is the same bundle with its state on ${os.tmpdir()}, for comparison. The targets compare the gateway row.`,
    `Upstream: a Node http server in its own process, ${CHUNKS} SSE chunks ${CHUNK_DELAY_MS} ms apart when streaming ` +
      `(peak RSS ${f1(upstreamPeakKb / 1024)} MB).`,
    `c=1: sequential keep-alive requests, ${LAT_WARMUP} warm-up + ${LAT_N} measured per target, percentiles exact. ` +
      `Stream: ${STREAM_WARMUP} warm-up + ${STREAM_N} sequential streams; TTFB = first body byte; medians ` +
      `(p99 TTFB: direct ${f2(d.stream.ttfbP99)}, pass-through ${f2(p.stream.ttfbP99)}, gateway ${f2(g.stream.ttfbP99)}, on disk ${f2(results.disk.stream.ttfbP99)} ms). ` +
      `The targets take turns in ${ROUNDS} rounds, so a burst of outside load does not fall on one row. ` +
      `Throughput: autocannon, ${CONCURRENCY} connections, non-streamed, ${RPS_WARMUP_SECONDS} s warm-up, then ${RPS_SECONDS} s per target ` +
      `in ${RPS_ROUNDS} alternating rounds (worst p50/p99 under load: ${targets.map((t) => `${t.key} ${results[t.key].rps.p50}/${results[t.key].rps.p99} ms`).join(', ')}). ` +
      `Peak RSS = max of VmRSS sampled every 100 ms and VmHWM from /proc, over the whole run; idle = after start-up. ` +
      `CPU per request = the target's processes' user + system CPU time (from /proc) over its ${RPS_SECONDS} s of load, divided by the requests served (workerd runs the Worker and its Durable Objects on one thread; the direct row's figure is the upstream's own).`,
    ...(portkey
      ? [`Portkey: \`@portkey-ai/gateway\` ${readVersion('@portkey-ai/gateway')} from npm, its \`build/start-server.js\` on Node ${process.version} with \`--headless\`, one process, ` +
        `routed to the same upstream by \`x-portkey-provider: openai\` and \`x-portkey-custom-host\`; \`@hono/node-server\` held at ${readVersion('@hono/node-server')} through package.json \`overrides\` (newer ones break its streams with \`TypeError: immutable\`). ` +
        `It gets the upstream's own request body (as the direct row and the pass-through do) and stores nothing: no keys, balances or ledger, so its row is a lower bound for what a billing gateway can do; its peak RSS is its Node process's, while the gateway's workerd also holds its Durable Objects and Miniflare's local D1, R2 and Queues.`]
      : []),
    `CPU split: \`bench/.out/gateway-client-only\`, the same bundle with the account client's call to its Durable Object answered in the Worker (built from \`bench/entries/account-in-worker.ts\`: every hold granted), in a workerd of its own after the chat rows, ` +
      `${RPS_WARMUP_SECONDS} s warm-up then ${RPS_SECONDS} s at c=${CONCURRENCY}: ${Math.round(workerSide.cpuUs)} µs per request${workerSide.failed ? ` (${workerSide.failed} failed)` : ''}. ` +
      `Its difference from the gateway is what the account's Durable Object costs, the RPC on both sides included; local workerd runs both on one thread, so this is the split a profile cannot make.`,
    `Memory floor: \`bench/constant-worker.mjs\` (reads the body, answers a constant completion) in a workerd of its own, given as many requests as each target gets ` +
      `(${floor.sequential} sequential, then c=${CONCURRENCY} for ${RPS_WARMUP_SECONDS + RPS_SECONDS} s: ${floor.loaded} requests): its peak RSS ${f1(floor.peakKb / 1024)} MB from ${f1(floor.idleKb / 1024)} at idle. ` +
      `workerd keeps memory for the requests it has served (about 6 to 15 KB each here, growing with the count, for a Worker that holds nothing), so no Worker on this runtime stays under a Node process's peak; ` +
      `the gateway's own share is its row minus the pass-through's (${signed((g.peakKb - p.peakKb) / 1024)} MB, of which ${signed((idle.gateway - idle.passthrough) / 1024)} MB at idle: Miniflare's local D1, R2, Queues and the Durable Object runtime).`,
    `The load generator, the upstream and workerd share the machine's ${cores} cores, so absolute numbers are this machine's; compare rows. ` +
      `Other processes used ${(foreignShare * 100).toFixed(0)} % of the machine's CPU during the measurements` +
      (foreignShare > 0.1 ? ' (a busy machine: expect noise; run again when it is idle).' : '.'),
    ...(process.env.BENCH_PROJECT_ROOT ? [`Gateway built from ${ROOT} (BENCH_PROJECT_ROOT).`] : []),
  ];

  return [
    table,
    '',
    '### Targets',
    '',
    targetsTable,
    '',
    ...notes.map((n) => `- ${n}`),
  ].join('\n');
}

/** CPU per request at c=32 of the gateway whose account calls are answered in the Worker (ACCOUNT_IN_WORKER_ENTRY): the Worker side. */
async function measureWorkerSide(client, config, upstream, stateRoot) {
  const dir = buildGateway(path.join(BENCH_DIR, '.out', 'gateway-client-only'), ACCOUNT_IN_WORKER_ENTRY);
  const instance = await startMiniflare('gateway-client-only', gatewayWorkerOptions(dir, config, upstream.url), path.join(stateRoot, 'client-only'));
  await applyMigrations(instance.mf, config);
  const { apiKey } = await setupGateway(client, instance.url);
  const target = { name: 'gateway-client-only', url: `${instance.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${apiKey}` } };
  if (RPS_WARMUP_SECONDS > 0) await cannon(target, CHAT_BODY, RPS_WARMUP_SECONDS);
  const before = cpuSeconds(instance.pids).ours;
  const loaded = await cannon(target, CHAT_BODY, RPS_SECONDS);
  const cpu = cpuSeconds(instance.pids).ours - before;
  await instance.stop();
  return { cpuUs: (cpu / loaded.requests.total) * 1e6, failed: loaded.non2xx + loaded.errors + loaded.timeouts };
}

/** Peak RSS of bench/constant-worker.mjs in its own workerd, under as many requests as a chat target gets. */
async function measureMemoryFloor(client, stateRoot) {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const worker = await startMiniflare('constant', {
    modules: [{ type: 'ESModule', path: path.join(BENCH_DIR, 'constant-worker.mjs') }],
    modulesRoot: BENCH_DIR,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
  }, path.join(stateRoot, 'constant'));
  const idleKb = worker.pids.reduce((sum, pid) => sum + memKb(pid, 'VmRSS'), 0);
  const sampler = rssSampler(worker.pids);
  const target = { name: 'constant', url: `${worker.url}/v1/chat/completions`, headers: {} };
  const sequentialN = LAT_WARMUP + LAT_N + STREAM_WARMUP + STREAM_N;
  await sequential(client, target, CHAT_BODY, sequentialN);
  const warm = await cannon(target, CHAT_BODY, RPS_WARMUP_SECONDS);
  const loaded = await cannon(target, CHAT_BODY, RPS_SECONDS);
  const peakKb = sampler.peakKb();
  sampler.stop();
  await worker.stop();
  return { idleKb, peakKb, sequential: sequentialN, loaded: warm.requests.total + loaded.requests.total };
}

function readVersion(pkg) {
  try {
    return JSON.parse(readFileSync(path.join(BENCH_DIR, '..', 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return '?';
  }
}

await runMain(main);
