// The "Edge" section of `npm run bench` (issue #14; alone with BENCH_ONLY=edge):
// - a distant account: the gateway bundle patched (bench/.out/gateway-distant, never src/) so that
//   every call from the Worker to the account Durable Object waits BENCH_DISTANT_MS (100) first,
//   against an upstream whose first byte comes after BENCH_FIRST_BYTE_MS (300), beside the
//   pass-through Worker and the unpatched gateway on the same upstream: c=1 latency, stream TTFB,
//   and the time from the upstream's last byte to the client's `[DONE]` (both on CLOCK_MONOTONIC);
// - on the distant variant, an empty account (nothing may reach the upstream) and a key revoked a
//   moment ago (401, its early upstream request aborted, no content);
// - the bundle's size (wrangler's gzip figure) and the time from a fresh workerd to its first answers;
// - startup CPU: `wrangler check startup`'s Active figure, median of BENCH_STARTUP_N (bench/startup.mjs).
// Knobs: BENCH_EDGE_N (100 per target and mode), BENCH_EDGE_WARMUP (10), BENCH_COLD_N (3),
// BENCH_DISTANT_MS, BENCH_FIRST_BYTE_MS.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  ADMIN_TOKEN, BENCH_DIR, CHAT_BODY, ROUNDS, applyMigrations, boundPassthroughWorkerOptions, gatewayWorkerOptions, interleaved, jsModules, log, num, passthroughWorkerOptions,
  DISTANT_ACCOUNT_ENTRY, buildGateway, percentile, setupGateway, sorted, startMiniflare, startUpstream,
} from './lib.mjs';
import { measureStartup, STARTUP_LIMIT_MS } from './startup.mjs';

const EDGE_N = num('BENCH_EDGE_N', 100);
const EDGE_WARMUP = num('BENCH_EDGE_WARMUP', 10);
const COLD_N = num('BENCH_COLD_N', 3);
const DISTANT_MS = num('BENCH_DISTANT_MS', 100);
const FIRST_BYTE_MS = num('BENCH_FIRST_BYTE_MS', 300);
const ADDED_LIMIT_MS = 2;
const GZIP_LIMIT_BYTES = 1_000_000;

const f1 = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(2)}` : 'n/a');
const yes = (ok) => (ok ? 'yes' : '**no**');
const p = (values, q) => percentile(sorted(values.filter(Number.isFinite)), q);
const mono = () => Number(process.hrtime.bigint()) / 1e6;
const median = (values) => p(values, 50);

/**
 * The distant account: the gateway built from `bench/entries/distant-account.ts`, whose Worker-side
 * account stubs (from `env.ACCOUNT.get`: the AccountClient's batched `apply` and its `direct()`
 * calls, the admin routes, registration, claims and the queue consumer) answer each method call
 * DISTANT_MS later (its `BENCH_DISTANT_MS` binding). Calls from Durable Objects (`this.env`) are
 * left alone.
 */
export function buildDistant() {
  return { dir: buildGateway(path.join(BENCH_DIR, '.out', 'gateway-distant'), DISTANT_ACCOUNT_ENTRY) };
}

const tagged = (body, tag) => ({ ...body, messages: [{ role: 'user', content: `Say hello bench-tag:${tag}` }] });
let seq = 0;

async function getJson(url, init = {}) {
  const res = await fetch(url, init);
  return { status: res.status, body: await res.json().catch(() => null) };
}
const upstreamStats = async (upstream, prefix = '') => (await getJson(`${upstream.url}/bench/stats?tag=${prefix}`)).body;

/** Sequential tagged requests; each result carries its tag and timings. */
async function series(client, t, stream, n, warmup = 0) {
  const out = [];
  for (let i = 0; i < warmup + n; i++) {
    const tag = `${t.key}-${stream ? 's' : 'n'}-${++seq}`;
    const res = await client.request(t.url, tagged(stream ? t.streamBody : t.body, tag), t.headers);
    if (res.status !== 200 || (stream && !res.body.includes('data: [DONE]'))) throw new Error(`${t.name}: ${res.status} ${res.body.slice(0, 300)}`);
    if (i >= warmup) out.push({ tag, totalMs: res.totalMs, ttfbMs: res.ttfbMs, startAt: res.startAt, doneAt: res.doneAt });
  }
  return out;
}

async function startGateway(label, dir, config, upstreamUrl, stateRoot, client, bindings = {}) {
  const options = gatewayWorkerOptions(dir, config, upstreamUrl);
  const instance = await startMiniflare(label, { ...options, bindings: { ...options.bindings, ...bindings } }, path.join(stateRoot, label));
  await applyMigrations(instance.mf, config);
  return { ...instance, account: await setupGateway(client, instance.url) };
}

export async function measureEdge({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  const size = bundleSize(bundleDir);
  const slow = await startUpstream({ FIRST_BYTE_MS: String(FIRST_BYTE_MS) });
  const distantBuild = buildDistant();
  log(`edge: upstream with first byte after ${FIRST_BYTE_MS} ms on ${slow.url}; distant bundle (account calls delayed ${DISTANT_MS} ms)`);
  const pt = await startMiniflare('edge-passthrough', passthroughWorkerOptions(config, slow.url), path.join(stateRoot, 'edge-passthrough'));
  const local = await startGateway('edge-gateway', bundleDir, config, slow.url, stateRoot, client);
  const distant = await startGateway('edge-distant', distantBuild.dir, config, slow.url, stateRoot, client, { BENCH_DISTANT_MS: String(DISTANT_MS) });
  const gw = (key, name, g) => ({ key, name, url: `${g.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${g.account.apiKey}` }, body: CHAT_BODY, streamBody: { ...CHAT_BODY, stream: true } });
  const targets = [
    { key: 'passthrough', name: 'pass-through Worker', url: `${pt.url}/v1/chat/completions`, headers: {}, body: CHAT_BODY, streamBody: { ...CHAT_BODY, stream: true, stream_options: { include_usage: true } } },
    gw('local', 'gateway, account Durable Object local', local),
    gw('distant', `gateway, account Durable Object ${DISTANT_MS} ms away`, distant),
  ];

  log(`edge: ${EDGE_WARMUP} warm-up + ${EDGE_N} requests and as many streams per target, in ${ROUNDS} rounds (each at least ${FIRST_BYTE_MS} ms)`);
  for (const t of targets) {
    await series(client, t, false, 0, EDGE_WARMUP);
    await series(client, t, true, 0, EDGE_WARMUP);
  }
  const per = Math.ceil(EDGE_N / ROUNDS);
  const plain = await interleaved(targets, ROUNDS, (t) => series(client, t, false, per));
  const streams = await interleaved(targets, ROUNDS, (t) => series(client, t, true, per));
  const { tags } = await upstreamStats(slow);
  const rows = {};
  for (const t of targets) {
    const n = plain.get(t.key).flat();
    const s = streams.get(t.key).flat();
    const reached = (list) => median(list.map((r) => tags[r.tag]?.receivedAt - r.startAt));
    // In strict order the upstream is reached a whole account round trip late.
    const strict = (list) => list.filter((r) => tags[r.tag]?.receivedAt - r.startAt >= DISTANT_MS / 2).length;
    rows[t.key] = {
      lat: [p(n.map((r) => r.totalMs), 50), p(n.map((r) => r.totalMs), 99)],
      ttfb: [p(s.map((r) => r.ttfbMs), 50), p(s.map((r) => r.ttfbMs), 99)],
      full: median(s.map((r) => r.totalMs)),
      gap: [p(s.map((r) => r.doneAt - tags[r.tag]?.lastByteAt), 50), p(s.map((r) => r.doneAt - tags[r.tag]?.lastByteAt), 99)],
      reached: [reached(n), reached(s)],
      strict: t.key === 'distant' ? `${strict(n)} / ${strict(s)} of ${n.length} / ${s.length}` : '—',
    };
  }

  log('edge: empty account and revoked keys on the distant variant');
  const empty = await emptyAccount(client, distant, slow);
  const revoked = [await revokedKey(client, distant, slow, false), await revokedKey(client, distant, slow, true)];
  for (const instance of [pt, local, distant]) await instance.stop();
  await slow.stop();

  log(`edge: cold starts (${COLD_N} each)`);
  const cold = await coldStarts({ client, bundleDir, config, upstreamUrl, stateRoot });
  log('edge: startup CPU (wrangler check startup)');
  const startup = await measureStartup();
  return report({ size, rows, empty, revoked, cold, startup, distantBuild });
}

/** A fresh account (no credit): its requests must be refused before anything goes upstream. */
async function emptyAccount(client, distant, upstream) {
  const before = (await upstreamStats(upstream)).requests['POST /v1/chat/completions'] ?? 0;
  const registered = await client.request(`${distant.url}/agent/register`, { type: 'anonymous' });
  const auth = { Authorization: `Bearer ${JSON.parse(registered.body).api_key}` };
  const statuses = [];
  for (const stream of [false, true, false, true]) {
    statuses.push((await client.request(`${distant.url}/v1/chat/completions`, tagged({ ...CHAT_BODY, stream }, `empty-${++seq}`), auth)).status);
  }
  const after = await upstreamStats(upstream, 'empty-');
  const sent = (after.requests['POST /v1/chat/completions'] ?? 0) - before;
  return { statuses, sent, ok: sent === 0 && Object.keys(after.tags).length === 0 && statuses.every((s) => s === 402) };
}

/**
 * A new key on the healthy account, used 3 times (so the isolate holds fresh evidence for it),
 * revoked through the admin API, then used at once: 401, no content, the upstream request aborted.
 */
async function revokedKey(client, distant, upstream, stream) {
  const { accountId } = distant.account;
  const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
  const created = await client.request(`${distant.url}/admin/accounts/${accountId}/keys`, { name: 'bench-revoke' }, admin);
  if (created.status !== 201) throw new Error(`create key: ${created.status} ${created.body.slice(0, 200)}`);
  const { api_key: apiKey, key } = JSON.parse(created.body);
  const auth = { Authorization: `Bearer ${apiKey}` };
  const url = `${distant.url}/v1/chat/completions`;
  for (let i = 0; i < 3; i++) {
    const warm = await client.request(url, tagged({ ...CHAT_BODY, stream }, `warm-${++seq}`), auth);
    if (warm.status !== 200) throw new Error(`revoke warm-up: ${warm.status} ${warm.body.slice(0, 200)}`);
  }
  const patched = await getJson(`${distant.url}/admin/accounts/${accountId}/keys/${key.id}`, { method: 'PATCH', headers: admin, body: '{"revoked":true}' });
  if (patched.status !== 200 || !patched.body?.revoked_at) throw new Error(`revoke: ${patched.status} ${JSON.stringify(patched.body)}`);
  const tag = `revoked-${++seq}`;
  const res = await client.request(url, tagged({ ...CHAT_BODY, stream }, tag), auth);
  let entry;
  for (let i = 0; i < 40; i++) {
    entry = (await upstreamStats(upstream, tag)).tags[tag];
    if (!entry || entry.closedAt !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const content = /"choices"|"delta"|data: /.test(res.body);
  return {
    stream, status: res.status, ms: res.totalMs, content,
    upstream: entry ? { reachedMs: entry.receivedAt - res.startAt, closedMs: entry.closedAt - res.startAt, aborted: entry.aborted } : null,
    ok: res.status === 401 && !content && (!entry || entry.aborted),
  };
}

function bundleSize(bundleDir) {
  const line = readFileSync(path.join(bundleDir, 'wrangler-size.txt'), 'utf8');
  const [, total, gzip] = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(line) ?? [];
  const modules = readdirSync(bundleDir, { recursive: true }).filter((f) => /\.(m?js|sql)$/.test(f));
  const zlibBytes = modules.reduce((sum, f) => sum + gzipSync(readFileSync(path.join(bundleDir, f))).length, 0);
  return { totalKiB: Number(total), gzipKiB: Number(gzip), zlibBytes };
}

/**
 * A fresh workerd on an existing state (migrated, one credited account): from `new Miniflare` to
 * ready, then to the first 200 of GET /health, or of a chat completion (cold isolate and cold
 * account Durable Object), then the same request again warm. The floor is the pass-through Worker's
 * first forwarded completion with the gateway's bindings (the same local D1, R2, Queues and SQLite
 * Durable Object plumbing, which Miniflare starts with the workerd and a deployed isolate does not);
 * the bare pass-through's is measured beside it.
 */
async function coldStarts({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  // One worker name throughout: local Durable Object storage is kept per worker name and class.
  const label = 'cold-gateway';
  const state = path.join(stateRoot, label);
  const setup = await startGateway(label, bundleDir, config, upstreamUrl, stateRoot, client);
  await setup.stop();
  const apiKey = setup.account.apiKey;
  await fetch(`${upstreamUrl}/bench/stats`); // load fetch before timing it
  const runs = { health: [], chat: [], passthrough: [], bound: [] };
  const first = async (kind, label, options, dir) => {
    const t0 = mono();
    const instance = await startMiniflare(label, options, dir);
    const ready = mono();
    const call = () =>
      kind === 'health'
        ? fetch(`${instance.url}/health`)
        : fetch(`${instance.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(kind === 'chat' ? { Authorization: `Bearer ${apiKey}` } : {}) }, body: JSON.stringify(CHAT_BODY) });
    const res = await call();
    await res.arrayBuffer();
    const answered = mono();
    if (res.status !== 200) throw new Error(`cold ${kind}: ${res.status}`);
    const w0 = mono();
    await (await call()).arrayBuffer();
    runs[kind].push({ ready: ready - t0, first: answered - ready, total: answered - t0, warm: mono() - w0 });
    await instance.stop();
  };
  for (let i = 0; i < COLD_N; i++) {
    await first('health', label, gatewayWorkerOptions(bundleDir, config, upstreamUrl), state);
    await first('chat', label, gatewayWorkerOptions(bundleDir, config, upstreamUrl), state);
    await first('passthrough', 'cold-passthrough', passthroughWorkerOptions(config, upstreamUrl), path.join(stateRoot, 'cold-passthrough'));
    await first('bound', 'cold-passthrough-bound', boundPassthroughWorkerOptions(bundleDir, config, upstreamUrl), path.join(stateRoot, 'cold-passthrough-bound'));
  }
  rmSync(state, { recursive: true, force: true });
  return Object.fromEntries(Object.entries(runs).map(([k, list]) => [k, Object.fromEntries(['ready', 'first', 'total', 'warm'].map((f) => [f, median(list.map((r) => r[f]))]))]));
}

function report({ size, rows, empty, revoked, cold, startup, distantBuild }) {
  const base = rows.passthrough;
  const names = { passthrough: 'pass-through Worker', local: 'gateway, account Durable Object local', distant: `gateway, account Durable Object ${DISTANT_MS} ms away` };
  const added = (r, k) => (r === base ? '—' : `${signed(r[k][0] - base[k][0])} / ${signed(r[k][1] - base[k][1])}`);
  const d = rows.distant;
  const addedLat = d.lat[0] - base.lat[0];
  const addedTtfb = d.ttfb[0] - base.ttfb[0];
  const revokedText = (r) =>
    `${r.status} in ${f1(r.ms)} ms, ${r.content ? 'with' : 'no'} content; upstream ` +
    (r.upstream ? `reached after ${f1(r.upstream.reachedMs)} ms, ${r.upstream.aborted ? 'aborted' : '**not aborted**, closed'} after ${f1(r.upstream.closedMs)} ms` : 'never called');
  const gzipBytes = size.gzipKiB * 1024;
  const checks = [
    [`distant account: added c=1 latency p50 over the pass-through, non-streamed`, `${signed(addedLat)} ms`, `≤ ${ADDED_LIMIT_MS} ms`, yes(addedLat <= ADDED_LIMIT_MS)],
    [`distant account: added stream TTFB p50 over the pass-through`, `${signed(addedTtfb)} ms`, `≤ ${ADDED_LIMIT_MS} ms`, yes(addedTtfb <= ADDED_LIMIT_MS)],
    ['distant account: an empty account sends nothing upstream', `${empty.sent} upstream requests; answers ${empty.statuses.join(', ')}`, '0, all 402', yes(empty.ok)],
    ...revoked.map((r) => [`distant account: a key revoked a moment ago is refused, its upstream request aborted (${r.stream ? 'streamed' : 'non-streamed'})`, revokedText(r), '401, aborted', yes(r.ok)]),
    ['upstream last byte → client `[DONE]` p50, local / distant (no limit: measured)', `${f2(rows.local.gap[0])} / ${f2(d.gap[0])} ms (pass-through ${f2(base.gap[0])})`, '—', '—'],
    ['bundle gzip size (wrangler)', `${f1(size.gzipKiB)} KiB (${(gzipBytes / 1e6).toFixed(3)} MB)`, '< 1 MB', yes(gzipBytes < GZIP_LIMIT_BYTES)],
    [`startup CPU: \`wrangler check startup\` Active, median of ${startup.runs.length}`, `${f1(startup.activeMs)} ms (runs ${startup.runs.map(f1).join(', ')}); an empty Worker ${f1(startup.empty.activeMs)} ms (runs ${startup.empty.runs.map(f1).join(', ')})`, `< ${STARTUP_LIMIT_MS} ms`, yes(startup.activeMs < STARTUP_LIMIT_MS)],
    ['startup CPU after the profile\'s first sample, median (no limit: measured)', `${f1(startup.afterFirstMs)} ms; an empty Worker ${f1(startup.empty.afterFirstMs)} ms`, '—', '—'],
    ...[['health', 'GET /health'], ['chat', 'chat completion']].flatMap(([k, what]) => [
      [
        `cold start: fresh workerd → first ${what}, total, over the pass-through's first forwarded completion, both with the gateway's bindings`,
        `${f1(cold[k].total)} / ${f1(cold.bound.total)} ms = ${f2(cold[k].total / cold.bound.total)}×`,
        '≤ 2×',
        yes(cold[k].total <= 2 * cold.bound.total),
      ],
      [
        `cold start: the same over the bare pass-through's (no bindings; measured: the difference is Miniflare starting local D1, R2, Queues and Durable Objects)`,
        `${f1(cold[k].total)} / ${f1(cold.passthrough.total)} ms = ${f2(cold[k].total / cold.passthrough.total)}×`,
        '—',
        '—',
      ],
    ]),
  ];
  return [
    `### Edge: the account Durable Object ${DISTANT_MS} ms away, the upstream's first byte after ${FIRST_BYTE_MS} ms`,
    '',
    '| target (same upstream) | c=1 latency p50 / p99 (ms) | added over pass-through p50 / p99 | stream TTFB p50 / p99 (ms) | added TTFB p50 / p99 | full stream p50 (ms) | upstream last byte → `[DONE]` p50 / p99 (ms) | upstream reached after, p50 non-streamed / streamed (ms) | strict order (upstream reached ≥ ' + DISTANT_MS / 2 + ' ms late), non-streamed / streamed |',
    '|:--|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...Object.entries(rows).map(([k, r]) =>
      `| ${names[k]} | ${f2(r.lat[0])} / ${f2(r.lat[1])} | ${added(r, 'lat')} | ${f2(r.ttfb[0])} / ${f2(r.ttfb[1])} | ${added(r, 'ttfb')} | ${f2(r.full)} | ${f2(r.gap[0])} / ${f2(r.gap[1])} | ${f2(r.reached[0])} / ${f2(r.reached[1])} | ${r.strict} |`),
    '',
    '| cold start, medians (ms) | new Miniflare → ready | ready → first 200 | total | the same request again, warm |',
    '|:--|--:|--:|--:|--:|',
    `| gateway, GET /health | ${f1(cold.health.ready)} | ${f1(cold.health.first)} | ${f1(cold.health.total)} | ${f2(cold.health.warm)} |`,
    `| gateway, chat completion (cold account Durable Object) | ${f1(cold.chat.ready)} | ${f1(cold.chat.first)} | ${f1(cold.chat.total)} | ${f2(cold.chat.warm)} |`,
    `| pass-through Worker, forwarded completion | ${f1(cold.passthrough.ready)} | ${f1(cold.passthrough.first)} | ${f1(cold.passthrough.total)} | ${f2(cold.passthrough.warm)} |`,
    `| pass-through Worker with the gateway's bindings (D1, R2, Queues, SQLite Durable Objects), forwarded completion | ${f1(cold.bound.ready)} | ${f1(cold.bound.first)} | ${f1(cold.bound.total)} | ${f2(cold.bound.warm)} |`,
    '',
    '#### Edge targets',
    '',
    '| target | measured | limit | met |',
    '|:--|--:|--:|:--|',
    ...checks.map((c) => `| ${c.join(' | ')} |`),
    '',
    `- Distant: \`bench/.out/gateway-distant\`, the gateway built from \`bench/entries/distant-account.ts\`: every stub the Worker gets from \`env.ACCOUNT.get\` (the AccountClient's, so its batched \`apply\` and the \`direct()\` calls of the admin routes, and every other one in the Worker: registration, claims, the queue consumer; calls from Durable Objects left alone) waits ${DISTANT_MS} ms before each method call is sent. ` +
      `The upstream (\`FIRST_BYTE_MS=${FIRST_BYTE_MS}\`) sends nothing, not even its status line, for ${FIRST_BYTE_MS} ms: a non-streamed answer comes whole then, a stream starts then. ` +
      `${EDGE_WARMUP} warm-up + ${EDGE_N} sequential keep-alive requests and as many streams per target, in ${ROUNDS} rounds; exact percentiles. "Upstream reached after": from the client's send to the upstream's receipt (about 1 ms when the hold and the upstream call start together, ${DISTANT_MS} ms more in strict order).`,
    `- The settlement journal (\`SETTLEMENT_JOURNAL\`, one per location and shard) is not delayed: in production it lives near the Worker. Speculative dispatch (\`src/products/chat/hold-dispatch.ts\`) hides the hold; an answer that states its cost leaves once its charge is durable (docs/operators/money.md, issue #10), which on the distant account is the journal's write, not the account's round trip (\`src/accounts/settlement.ts\`: journaled from a shortest recent round trip of 5 ms). ` +
      `The strict-order requests are the p99: the targets take turns, so the first request of each of the distant account's ${ROUNDS} rounds comes after the other targets' turns, more than 5 s (\`FRESH_MS\`) since its last hold, and waits for its hold as a cold isolate's would. ` +
      `A stream's first byte does not wait for it; its final frame (\`x_service.cost_usd\`) and \`[DONE]\` do, hence the last byte → \`[DONE]\` column: a clock on the machine's monotonic time in the upstream (when it wrote its last byte) and in the client (the chunk that brought \`[DONE]\`).`,
    `- Empty account: a fresh registration with no credit, 2 non-streamed and 2 streamed requests; upstream requests counted by the upstream. Revoked key: a new key on the healthy account, used 3 times (the isolate's evidence is fresh), revoked with \`PATCH /admin/accounts/{id}/keys/{key_id}\`, then used at once; times from the client's send.`,
    `- Size: wrangler's \`deploy --dry-run\` figure, Total Upload ${f1(size.totalKiB)} KiB / gzip ${f1(size.gzipKiB)} KiB (zlib level 6 over the modules: ${f1(size.zlibBytes / 1024)} KiB). ` +
      `Cold start: a fresh Miniflare (one workerd process; the Worker's modules are compiled and evaluated before it is ready) on a state already migrated with one credited account, then the first request; medians of ${COLD_N}. The target's floor is the pass-through Worker given the gateway's bindings (\`bench/passthrough-bound-worker.mjs\`: the same D1, R2, Queue and SQLite Durable Object bindings, its classes empty), since a fresh Miniflare starts local implementations of those bindings before either Worker is ready, which a deployed isolate does not; the bare pass-through's row shows that plumbing's share. A deployed Worker's cold start is Cloudflare's, not measured here.`,
    `- Startup CPU: \`npx wrangler check startup\` (the profile of workerd importing the main module, wrangler's build of \`wrangler.toml\`), ${startup.runs.length} runs, median of its "Active" figure (sampled CPU, ${f1(startup.gcMs)} ms of it garbage collection); profiles in \`bench/.out/startup/\`. ` +
      `Its first non-idle sample spans the gap before the profiler's first tick (tens of ms on a loaded machine, whatever the Worker), so the figure has that floor: an empty Worker of the same settings, interleaved, measures it; "after the first sample" leaves that gap out. docs/contributors/architecture.md, "Startup", describes what runs at load and what on first use.`,
  ].join('\n');
}
