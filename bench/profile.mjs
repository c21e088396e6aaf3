// Where the gateway's time goes (not part of `npm run bench`): `node bench/profile.mjs`.
// Runs variants of the gateway bundle (patched copies under bench/.out/, never src/) and reports,
// per variant, c=1 latency and c=32 throughput next to the pass-through Worker:
//   gateway            the bundle as built
//   gateway-tmpfs      the same with its state on /dev/shm (is it the disk?)
//   timed              per-request phase timings (hold RPC, upstream, read+settle) in a header
//   no-settle          settle RPC replaced by a constant (what settle costs)
//   no-do              authorizeHold and settle both replaced by constants (Hono+zod+upstream only)
//   client-only        the account client runs, but its RPC is answered locally (what the client costs)
//   no-sql             the hot path's SQL writes are skipped (what they cost)
//   lazy-N             LAZY_MS (how long a lazy release or lease renewal waits for company) set to N ms
//   no-logic           the Durable Object's batch call answers constants at once (the RPC alone)
//   strict             speculative dispatch off: the hold, then the upstream
//   route-only         the chat handler replaced by a plain forward after validation (Hono,
//                      middleware and zod only)
//   do-probe           bench/do-probe-worker.mjs: upstream call plus 0, 1 or 2 minimal DO RPCs
// plus GET /health (routing only) and GET /agent/account (one read-only DO RPC).
// PROFILE_BODY_KB=100 sends a conversation of about 100 KB instead of one short message.
// PROFILE_TMPFS=1 keeps every variant's state on /dev/shm, as `npm run bench` does for the gateway row.
// PROFILE_VARIANTS=gateway,timed limits the set; PROFILE_CPU=gateway,no-do (or 1 = gateway) also
// writes a V8 CPU profile of those variants under c=32 load (bench/.out/<variant>.cpuprofile) and
// prints where the isolate's time goes, mapped to the original sources.
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { unstable_readConfig } from 'wrangler';
import {
  ADMIN_TOKEN, BENCH_DIR, CHAT_BODY, ROOT, applyMigrations, buildGateway, cannon, cleanups, cpuSeconds, passthroughWorkerOptions,
  gatewayWorkerOptions, log, percentile, sequential, sorted, makeClient, runMain, setupGateway, startMiniflare,
  startUpstream,
  mainModule, jsModules, ACCOUNT_IN_WORKER_ENTRY, openInspector,
} from './lib.mjs';

const N = Number(process.env.PROFILE_N ?? 1000);
/** PROFILE_BODY_KB: chat requests carry a conversation of about this size instead of one short message. */
const BODY = bigBody(Number(process.env.PROFILE_BODY_KB ?? 0));

function bigBody(kb) {
  if (!kb) return CHAT_BODY;
  const turn = 'The quick brown fox jumps over the lazy dog while the agent reads its long context window. '.repeat(20);
  const messages = [{ role: 'system', content: 'You are a helpful assistant.' }];
  while (JSON.stringify(messages).length < kb * 1024) messages.push({ role: messages.length % 2 ? 'user' : 'assistant', content: turn });
  return { ...CHAT_BODY, messages };
}
const RPS_S = Number(process.env.PROFILE_RPS_SECONDS ?? 4);
const VARIANTS = (process.env.PROFILE_VARIANTS ?? 'passthrough,gateway,gateway-tmpfs,timed,no-settle,no-do').split(',');

// The profiler's own experiments edit a copy of the built text (anchors in today's code, so they
// break as the code moves; the bench's measured variants are entry files, bench/entries/).
/**
 * A copy of a bundle directory with text edits ([from, to] pairs, each anchor required in at least
 * one module): each edit applies to every JavaScript module that holds its anchor, since the code it
 * targets may sit in a lazily imported module (scripts/build.ts) rather than the main one.
 */
function patch(src, dst, edits) {
  rmSync(dst, { recursive: true, force: true });
  mkdirSync(dst, { recursive: true });
  cpSync(src, dst, { recursive: true });
  const texts = new Map(jsModules(dst).map((f) => [f, readFileSync(path.join(dst, f), 'utf8')]));
  const changed = new Set();
  for (const [from, to] of edits) {
    let found = false;
    for (const [f, js] of texts) {
      if (typeof from === 'string' ? !js.includes(from) : js.search(from) < 0) continue;
      texts.set(f, js.replace(from, to));
      changed.add(f);
      found = true;
    }
    if (!found) throw new Error(`patch anchor not found: ${String(from).slice(0, 80)}`);
  }
  for (const f of changed) writeFileSync(path.join(dst, f), texts.get(f));
  return dst;
}


// In the account client, so both orders of src/products/chat/hold-dispatch.ts (strict and speculative) get it.
const HOLD_CALL = 'const result = await this.#channel.call(this.#sender, { op: "hold", request }).catch(spendCheckUnavailable);';
const FAKE_HOLD = 'const result = { ok: true, accountId: "a", keyId: "k", holdId: "h", amountMicros: request.maxMicros, availableMicros: 1e12 };';
// In settleDurably (src/accounts/settlement.ts), the settlement near the account (esbuild may rename `account`).
const SETTLE_CALL = /const result = await account\d*\.settle\(holdId, chargeMicros\);/;
// client-only: bench/entries/account-in-worker.ts.
// The Durable Object's work without its SQL (open holds and keys live in memory anyway).
const SQL_CALL = 'return storage.sql.exec(statement, ...bindings).toArray();';
// PROFILE_NO_SQL (a regular expression) picks which statements to skip.
const NO_SQL_RE = process.env.PROFILE_NO_SQL ?? '^(INSERT INTO (holds|ledger|key_spend)|DELETE FROM holds|UPDATE account SET balance_micros = \\?$)';
const NO_SQL = `if (/${NO_SQL_RE}/.test(statement)) return []; ` + SQL_CALL;
const FAKE_SETTLE = 'const result = { ok: true, chargedMicros: chargeMicros, balanceMicros: 1e12 };';

// Unsettled holds stay open: lift the in-flight cap so the no-settle variant is not refused.
const OPEN_HOLDS_CAP = 'var MAX_OPEN_HOLDS = 128;';
const NO_CAP = 'var MAX_OPEN_HOLDS = 1e9;';


const timedEdits = [
  ['var chatCompletionsHandler = async (c) => {', 'var chatCompletionsHandler = async (c) => {\n  const __t0 = Date.now();'],
  // The hold and the upstream's headers overlap when the call is speculative (D21): one phase.
  ['  const release = () => {\n    stopLease();', '  const __t1 = Date.now();\n  const release = () => {\n    stopLease();'],
  ['  const context = { model: model.id, requestId: c.get("requestId")', '  const __t2 = Date.now();\n  const context = { model: model.id, requestId: c.get("requestId")'],
  [
    '  const { body, costMicros, balanceMicros } = await completed;\n  return c.body(body, 200, {',
    '  const { body, costMicros, balanceMicros } = await completed;\n  const __t3 = Date.now();\n  return c.body(body, 200, {\n    "x-bench-timing": `${__t1 - __t0},${__t2 - __t1},${__t3 - __t2}`,',
  ],
];

async function measure(client, target, pids) {
  const times = sorted((await sequential(client, target, target.body, N, 100)).total);
  const lat = { p50: percentile(times, 50), p99: percentile(times, 99) };
  await cannon(target, target.body, 1);
  const before = cpuSeconds(pids);
  const r = await cannon(target, target.body, RPS_S);
  const cpuUs = ((cpuSeconds(pids).ours - before.ours) / r.requests.total) * 1e6;
  return { ...lat, rps: r.requests.total / RPS_S, cpuUs, failed: r.non2xx + r.errors + r.timeouts, loadP50: r.latency.p50, loadP99: r.latency.p99 };
}

async function main() {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  // Unminified: the edits below anchor on source text, and a profile needs the functions' names.
  const bundle = buildGateway(path.join(BENCH_DIR, '.out', 'gateway'), undefined, ['--no-minify']);
  const upstream = await startUpstream();
  const persist = mkdtempSync(path.join(os.tmpdir(), 'gateway-profile-'));
  cleanups.push(() => rmSync(persist, { recursive: true, force: true }));
  const client = makeClient();
  cleanups.push(() => client.close());
  const rows = [];

  for (const [index, variant] of VARIANTS.entries()) {
    if (variant === 'passthrough') {
      const mf = await startMiniflare('passthrough', passthroughWorkerOptions(config, upstream.url), path.join(persist, `${variant}-${index}`));
      rows.push({ variant, ...(await measure(client, { name: variant, url: `${mf.url}/v1/chat/completions`, headers: {}, body: BODY }, mf.pids)) });
      await mf.mf.dispose();
      continue;
    }
    if (variant === 'do-probe' || variant === 'do-probe-tmpfs') {
      const probeState = variant === 'do-probe-tmpfs' ? mkdtempSync('/dev/shm/gateway-profile-') : path.join(persist, `${variant}-${index}`);
      if (variant === 'do-probe-tmpfs') cleanups.push(() => rmSync(probeState, { recursive: true, force: true }));
      const mf = await startMiniflare('probe', {
        modules: [{ type: 'ESModule', path: path.join(BENCH_DIR, 'do-probe-worker.mjs') }],
        modulesRoot: BENCH_DIR,
        compatibilityDate: config.compatibility_date,
        compatibilityFlags: config.compatibility_flags,
        bindings: { UPSTREAM_BASE_URL: upstream.url, PROBE_SKIP: process.env.PROBE_SKIP ?? '' },
        durableObjects: { PROBE: { className: 'Probe', useSQLite: true } },
      }, probeState);
      for (const route of (process.env.PROBE_ROUTES ?? 'none,noop,sql,sql2').split(',')) {
        const t = { name: route, url: `${mf.url}/${route}`, headers: { 'x-upstream': '1' }, body: BODY };
        rows.push({ variant: `${variant}: upstream + ${{ none: 'no RPC', noop: '1 no-op RPC', sql: '1 raw-SQL hold RPC', sql2: '2 raw-SQL RPCs' }[route] ?? route}`, ...(await measure(client, t, mf.pids)) });
      }
      await mf.mf.dispose();
      continue;
    }
    const dir =
      variant === 'timed' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-timed'), timedEdits)
      : variant === 'no-settle' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-no-settle'), [[SETTLE_CALL, FAKE_SETTLE], [OPEN_HOLDS_CAP, NO_CAP]])
      : variant.startsWith('lazy-') ? patch(bundle, path.join(BENCH_DIR, '.out', `gateway-${variant}`), [['var LAZY_MS = 5;', `var LAZY_MS = ${variant.slice(5)};`]])
      : variant === 'route-only' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-route-only'), [[
        'var chatCompletionsHandler = (c) => serveChat(c, CHAT_COMPLETIONS, c.req.valid("json"));',
        'var chatCompletionsHandler = async (c) => {\n  { const r = await fetch(c.env.OPENAI_BASE_URL + "/v1/chat/completions", { method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer x" }, body: JSON.stringify(c.req.valid("json")) }); return new Response(r.body, { headers: { "Content-Type": "application/json" } }); }\n};',
      ]])
      : variant === 'client-only' ? buildGateway(path.join(BENCH_DIR, '.out', 'gateway-client-only'), ACCOUNT_IN_WORKER_ENTRY, ['--no-minify'])
      : variant === 'no-sql' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-no-sql'), [[SQL_CALL, NO_SQL]])
      : variant === 'no-logic' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-no-logic'), [[
        'async apply(ops) {\n    const now = Date.now();',
        'async apply(ops) {\n    return { balanceMicros: 1e12, results: ops.map((op) => op.op === "hold" ? { ok: true, accountId: "a", keyId: "k", holdId: "h", amountMicros: op.request.maxMicros, availableMicros: 1e12 } : { ok: true, holdId: op.holdId, chargedMicros: op.chargeMicros, balanceMicros: 1e12, applied: true }) };\n    const now = Date.now();',
      ]])
      : variant === 'strict' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-strict'), [['enabled: c.env.SPECULATIVE_DISPATCH !== "off",', 'enabled: false,']])
      : variant === 'no-do' ? patch(bundle, path.join(BENCH_DIR, '.out', 'gateway-no-do'), [[HOLD_CALL, FAKE_HOLD], [SETTLE_CALL, FAKE_SETTLE]])
      : bundle;
    const opts = gatewayWorkerOptions(dir, config, upstream.url);
    const cpuVariants = (process.env.PROFILE_CPU === '1' ? 'gateway' : (process.env.PROFILE_CPU ?? '')).split(',');
    const cpu = cpuVariants.includes(variant);
    const state = variant === 'gateway-tmpfs' || process.env.PROFILE_TMPFS ? mkdtempSync('/dev/shm/gateway-profile-') : path.join(persist, `${variant}-${index}`);
    if (state.startsWith('/dev/shm/')) cleanups.push(() => rmSync(state, { recursive: true, force: true }));
    const gw = await startMiniflare(variant, opts, state, cpu ? { inspectorPort: 0 } : {});
    await applyMigrations(gw.mf, config);
    const { apiKey } = await setupGateway(client, gw.url);
    const target = { name: variant, url: `${gw.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${apiKey}` }, body: BODY };
    rows.push({ variant, ...(await measure(client, target, gw.pids)) });

    if (variant === 'gateway') {
      for (const [name, method, p] of [['GET /health', 'GET', '/health'], ['GET /agent/account', 'GET', '/agent/account']]) {
        const t = { name, url: `${gw.url}${p}`, method, headers: { Authorization: `Bearer ${apiKey}` } };
        const lat = await getLoop(client, t, N);
        const r = await cannon({ ...t, method }, undefined, RPS_S);
        rows.push({ variant: name, ...lat, rps: r.requests.total / RPS_S, failed: r.non2xx + r.errors, loadP50: r.latency.p50, loadP99: r.latency.p99 });
      }
    }
    if (variant === 'gateway' && process.env.PROFILE_ACCOUNTS !== '0') {
      // The same load spread over 8 accounts (8 Durable Objects) instead of one.
      const keys = [apiKey];
      for (let i = 1; i < 8; i++) keys.push((await setupGateway(client, gw.url)).apiKey);
      let next = 0;
      const spread = (seconds) =>
        autocannon({
          url: target.url,
          method: 'POST',
          connections: 32,
          duration: seconds,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(BODY),
          requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, Authorization: `Bearer ${keys[next++ % keys.length]}` } }) }],
        });
      await spread(1);
      const r = await spread(RPS_S);
      rows.push({ variant: 'gateway, load over 8 accounts', p50: NaN, p99: NaN, rps: r.requests.total / RPS_S, failed: r.non2xx + r.errors, loadP50: r.latency.p50, loadP99: r.latency.p99 });
    }
    if (cpu) await cpuProfile(gw.mf, target, variant, dir);
    if (variant === 'timed') {
      const sums = [0, 0, 0];
      const n = 500;
      for (let i = 0; i < n; i++) {
        const res = await client.request(target.url, target.body, target.headers);
        res.headers['x-bench-timing'].split(',').forEach((v, j) => (sums[j] += Number(v)));
      }
      log(`timed (mean over ${n}, Date.now() ms granularity): hold RPC and upstream headers ${(sums[0] / n).toFixed(2)} ms, ` +
        `in between ${(sums[1] / n).toFixed(2)} ms, body + settle RPC ${(sums[2] / n).toFixed(2)} ms`);
    }
    await gw.mf.dispose();
  }

  const out = [
    '| variant | c=1 p50 | c=1 p99 | req/s c=32 | workerd CPU per request (µs) | p50/p99 under load |',
    '|:--|--:|--:|--:|--:|--:|',
    ...rows.map((r) => `| ${r.variant} | ${Number.isFinite(r.p50) ? r.p50.toFixed(2) : '—'} | ${Number.isFinite(r.p99) ? r.p99.toFixed(2) : '—'} | ${Math.round(r.rps)}${r.failed ? ` (${r.failed} failed)` : ''} | ${r.cpuUs ? Math.round(r.cpuUs) : '—'} | ${r.loadP50}/${r.loadP99} |`),
  ].join('\n');
  console.log(out);
}

async function getLoop(client, target, n) {
  const http = await import('node:http');
  const times = [];
  for (let i = 0; i < n + 100; i++) {
    const start = process.hrtime.bigint();
    const status = await new Promise((resolve, reject) => {
      const req = http.request(target.url, { method: 'GET', agent: client.agent, headers: target.headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', reject);
      req.end();
    });
    if (status !== 200) throw new Error(`${target.name}: ${status}`);
    if (i >= 100) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(n * 0.5)], p99: times[Math.floor(n * 0.99)] };
}

/** A V8 CPU profile of the gateway's isolate (Worker and Durable Object) under c=32 load. */
async function cpuProfile(mf, target, variant, bundleDir) {
  const { send, close } = await openInspector(mf, variant, 100);
  await send('Profiler.start');
  await cannon(target, target.body, RPS_S);
  const { result } = await send('Profiler.stop');
  close();
  const file = path.join(BENCH_DIR, '.out', `${variant}.cpuprofile`);
  writeFileSync(file, JSON.stringify(result.profile));
  const mapFile = readdirSync(bundleDir).find((f) => f.endsWith('.js.map'));
  // scripts/build.ts writes no source map (and its code is split over modules): no summary by source then.
  if (mapFile) summarize(result.profile, path.join(bundleDir, mapFile));
  else log('no source map beside the bundle: the summary by source is skipped (bench/README.md)');
  log(`wrote ${file}`);
}

/** Self time by package (native calls such as SQLite `exec` charged to their JS caller) and the
 * top functions by inclusive time, mapped to the original sources through the bundle's source map. */
function summarize(profile, sourceMapFile) {
  const map = new SourceMap(JSON.parse(readFileSync(sourceMapFile, 'utf8')));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const source = (n) => (n.callFrame.url ? (map.findEntry(n.callFrame.lineNumber, n.callFrame.columnNumber)?.originalSource ?? null) : null);
  const pkg = (s) => {
    if (s.includes('node_modules/src/') || s.includes('drizzle-orm')) return 'drizzle-orm'; // drizzle's own maps say node_modules/src
    const m = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(s) ?? /(src\/[^/]+|durable-objects\/[^/]+)/.exec(s);
    return m ? m[1] : s;
  };
  const self = new Map();
  const inclusive = new Map();
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id);
    const name = leaf.callFrame.functionName;
    let key = name;
    if (!['(idle)', '(program)', '(garbage collector)'].includes(name)) {
      let cur = leaf;
      while (cur && !source(cur)) cur = byId.get(parent.get(cur.id));
      key = (cur ? pkg(source(cur)) : '(no JS frame)') + (leaf.callFrame.url ? '' : ` [native ${name}]`);
    }
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set();
    for (let cur = leaf; cur; cur = byId.get(parent.get(cur.id))) {
      const s = source(cur);
      if (!s) continue;
      const fn = `${cur.callFrame.functionName || '(anonymous)'} [${pkg(s)}]`;
      if (seen.has(fn)) continue;
      seen.add(fn);
      inclusive.set(fn, (inclusive.get(fn) ?? 0) + dt);
    }
  });
  const pct = (v) => `${((v / total) * 100).toFixed(1).padStart(5)} %`;
  console.log(`\nCPU profile of the gateway isolate (Worker + Durable Object), ${(total / 1000).toFixed(0)} ms sampled`);
  console.log('self time by package:');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`${pct(v)}  ${k}`);
  console.log('inclusive time, top functions:');
  for (const [k, v] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(`${pct(v)}  ${k}`);
}

await runMain(main);
