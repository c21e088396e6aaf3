// Shared pieces of the benchmark (bench/run.mjs) and the profiling runs (bench/profile.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_readConfig } from 'wrangler';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
/** The checkout whose gateway is measured (wrangler.toml, migrations, sources). */
export const ROOT = path.resolve(process.env.BENCH_PROJECT_ROOT ?? path.join(BENCH_DIR, '..'));
export const HOST = '127.0.0.1';
/** Beside a built bundle: the compatibility date and flags of the wrangler.toml it was built from. */
const COMPATIBILITY_FILE = 'compatibility.json';

export const num = (name, fallback) => (process.env[name] ? Number(process.env[name]) : fallback);
export const LAT_N = num('BENCH_LAT_N', 2000);
export const LAT_WARMUP = num('BENCH_LAT_WARMUP', 200);
export const STREAM_N = num('BENCH_STREAM_N', 200);
export const STREAM_WARMUP = num('BENCH_STREAM_WARMUP', 20);
export const RPS_SECONDS = num('BENCH_RPS_SECONDS', 10);
export const RPS_WARMUP_SECONDS = num('BENCH_RPS_WARMUP_SECONDS', 2);
export const CONCURRENCY = num('BENCH_CONCURRENCY', 32);
/** Targets take turns in this many rounds (latency, stream) and throughput rounds. */
export const ROUNDS = num('BENCH_ROUNDS', 4);
export const RPS_ROUNDS = num('BENCH_RPS_ROUNDS', 2);
export const CHUNKS = num('CHUNKS', 5);
export const CHUNK_DELAY_MS = num('CHUNK_DELAY_MS', 10);

export const ADMIN_TOKEN = 'bench-admin-token';
export const UPSTREAM_KEY = 'sk-bench';
export const CHAT_BODY = { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], max_tokens: 16 };

// ---------------------------------------------------------------------------------------------
// Processes we start, stopped by PID (or by disposing the Miniflare that owns them) on any exit.
export const cleanups = [];
let cleaning = null;
export function cleanup() {
  cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (err) {
        console.error(`cleanup: ${err?.message ?? err}`);
      }
    }
  })();
  return cleaning;
}
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    cleanup().finally(() => process.exit(130));
  });
}

/** Runs a script's `main`, stops everything it started whatever happens, and exits 0 or 1. */
export async function runMain(main) {
  let code = 0;
  try {
    await main();
  } catch (err) {
    console.error(err?.stack ?? err);
    code = 1;
  } finally {
    await cleanup();
  }
  process.exit(code);
}

export const log = (...args) => console.error('[bench]', ...args);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function killPid(pid, signal = 'SIGTERM') {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

const alive = (pid) => {
  try {
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

/** SIGTERM, up to 2 s to exit, then SIGKILL. */
export async function stopPids(pids) {
  for (const pid of pids) if (alive(pid)) killPid(pid);
  for (let i = 0; i < 20 && pids.some(alive); i++) await sleep(100);
  for (const pid of pids) if (alive(pid)) killPid(pid, 'SIGKILL');
}

// ---------------------------------------------------------------------------------------------
// /proc helpers: find the workerd process a Miniflare spawned, and read its memory.
export function childPids(ppid) {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may contain spaces, so split after the last ')'.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppidOf = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppidOf === ppid) pids.push({ pid: Number(entry), comm });
    } catch {
      // raced with an exiting process
    }
  }
  return pids;
}

export function descendants(pid) {
  const out = [];
  for (const child of childPids(pid)) out.push(child, ...descendants(child.pid));
  return out;
}

export function memKb(pid, field) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/** CPU seconds used so far: the whole machine (busy, all cores) and the given processes. */
export function cpuSeconds(pids) {
  const hz = 100; // USER_HZ on Linux
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  const busy = fields[0] + fields[1] + fields[2] + fields[5] + fields[6]; // user nice system irq softirq
  let ours = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ours += Number(rest[11]) + Number(rest[12]); // utime, stime
    } catch {
      // exited
    }
  }
  return { machine: busy / hz, ours: ours / hz };
}

/** Samples VmRSS of a set of PIDs every 100 ms; `peakKb()` also folds in the kernel's VmHWM. */
export function rssSampler(pids) {
  let peak = 0;
  const sample = () => {
    const total = pids.reduce((sum, pid) => sum + memKb(pid, 'VmRSS'), 0);
    if (total > peak) peak = total;
  };
  sample();
  const timer = setInterval(sample, 100);
  timer.unref();
  return {
    nowKb: () => pids.reduce((sum, pid) => sum + memKb(pid, 'VmRSS'), 0),
    peakKb: () => {
      sample();
      // VmHWM is the process's own RSS high-water mark, exact between samples.
      return Math.max(peak, pids.reduce((sum, pid) => sum + memKb(pid, 'VmHWM'), 0));
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP client for the sequential loops: one keep-alive socket, Nagle off, timings by hrtime.
export function makeClient() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    agent,
    /**
     * Resolves { status, ttfbMs, totalMs, body, startAt, doneAt } with ttfb = first body byte;
     * startAt and doneAt (the chunk that brought `[DONE]`) in ms on the machine's monotonic clock.
     */
    request(url, body, headers = {}) {
      const payload = Buffer.from(JSON.stringify(body));
      return new Promise((resolve, reject) => {
        const start = process.hrtime.bigint();
        let ttfb = null;
        let done = null;
        const chunks = [];
        const req = http.request(
          url,
          {
            method: 'POST',
            agent,
            headers: { 'Content-Type': 'application/json', 'Content-Length': payload.length, ...headers },
          },
          (res) => {
            res.on('data', (chunk) => {
              if (ttfb === null) ttfb = process.hrtime.bigint();
              if (done === null && chunk.includes('[DONE]')) done = process.hrtime.bigint();
              chunks.push(chunk);
            });
            res.on('end', () => {
              const end = process.hrtime.bigint();
              resolve({
                status: res.statusCode,
                headers: res.headers,
                ttfbMs: Number((ttfb ?? end) - start) / 1e6,
                totalMs: Number(end - start) / 1e6,
                startAt: Number(start) / 1e6,
                doneAt: done === null ? null : Number(done) / 1e6,
                body: Buffer.concat(chunks).toString('utf8'),
              });
            });
            res.on('error', reject);
          },
        );
        req.on('socket', (socket) => socket.setNoDelay(true));
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

// ---------------------------------------------------------------------------------------------
// The three targets.
/** bench/upstream.mjs in its own process; `env` adds knobs (e.g. FIRST_BYTE_MS). */
export async function startUpstream(env = {}) {
  const child = spawn(process.execPath, [path.join(BENCH_DIR, 'upstream.mjs')], {
    env: { ...process.env, UPSTREAM_PORT: '0', CHUNKS: String(CHUNKS), CHUNK_DELAY_MS: String(CHUNK_DELAY_MS), ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => stopPids([child.pid]));
  const port = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('upstream did not start within 10 s')), 10_000);
    child.stdout.on('data', (data) => {
      out += data;
      const match = /READY (\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`upstream exited with ${code}`)));
  });
  return { pid: child.pid, url: `http://${HOST}:${port}`, stop: () => stopPids([child.pid]) };
}

/**
 * `wrangler deploy --dry-run --outdir`: the exact modules a deploy would upload (minified, as
 * scripts/build.ts builds them); `flags` adds wrangler flags (`--no-minify` for a profile that needs
 * names: passed to the build as GATEWAY_MINIFY=false, since wrangler itself bundles nothing).
 */
export function buildGateway(outDir, entry, flags = []) {
  // An entry file of bench/entries/ is built by scripts/build.ts in src/index.ts's place.
  const variant = entry?.startsWith('bench/entries/') ? entry : undefined;
  if (variant) entry = undefined;
  const staging = `${outDir}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const wrangler = path.join(BENCH_DIR, '..', 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const noMinify = flags.includes('--no-minify');
  const wranglerFlags = flags.filter((flag) => flag !== '--no-minify');
  const result = spawnSync(process.execPath, [wrangler, 'deploy', ...(entry ? [entry] : []), '--dry-run', '--outdir', staging, ...wranglerFlags], {
    cwd: ROOT,
    encoding: 'utf8',
    // The build command runs on this Node (scripts/build.ts), whatever `node` the PATH has.
    env: {
      ...process.env,
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      WRANGLER_SEND_METRICS: 'false',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      ...(noMinify ? { GATEWAY_MINIFY: 'false' } : {}),
      ...(variant ? { GATEWAY_ENTRY: variant } : {}),
    },
  });
  if (result.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    const errors = `${result.stdout}\n${result.stderr}`.split('\n').filter((l) => /ERROR|error:|Could not/.test(l)).slice(0, 12);
    throw new Error(`wrangler deploy --dry-run failed in ${ROOT} (the gateway does not build):\n${errors.join('\n')}`);
  }
  rmSync(outDir, { recursive: true, force: true });
  renameSync(staging, outDir);
  // wrangler's own size line ("Total Upload: … KiB / gzip: … KiB"), for bench/edge.mjs
  writeFileSync(path.join(outDir, 'wrangler-size.txt'), /Total Upload:.*/.exec(result.stdout)?.[0] ?? '');
  // The compatibility settings it was built with, so a bundle of another commit runs with its own.
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  writeFileSync(path.join(outDir, COMPATIBILITY_FILE), JSON.stringify({ date: config.compatibility_date, flags: config.compatibility_flags }));
  return outDir;
}

/** The entry module of a `wrangler deploy --outdir` folder: index.mjs (scripts/build.ts), index.js (a bundle of an older tree). */
export const mainModule = (bundleDir) => ['index.mjs', 'index.js'].find((f) => readdirSync(bundleDir).includes(f)) ?? readdirSync(bundleDir).find((f) => /\.m?js$/.test(f));

/**
 * The module type of a file wrangler copied beside the entry (`<sha1>-<name>`), by the config's
 * `[[rules]]` (e.g. a browser script bundled as Text); an entry-like `.js` otherwise is an ES module.
 */
function moduleType(file, config) {
  const name = file.replace(/^[0-9a-f]{40}-/, '');
  for (const rule of config.rules ?? []) {
    for (const glob of rule.globs ?? []) {
      const base = glob.split('/').pop().replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      if (new RegExp(`^${base}$`).test(name)) return rule.type;
    }
  }
  return /\.sql$/.test(file) ? 'Text' : 'ESModule';
}

/** A bundle directory's JavaScript modules (the main module and build/lazy-modules/), relative paths. */
export const jsModules = (bundleDir) => readdirSync(bundleDir, { recursive: true }).filter((f) => /\.m?js$/.test(f));

/** The gateway whose batched account calls are answered in the Worker, every hold granted: what the Worker side costs. */
export const ACCOUNT_IN_WORKER_ENTRY = 'bench/entries/account-in-worker.ts';
/** The gateway whose Worker-side account calls each wait BENCH_DISTANT_MS (a binding) before they are sent. */
export const DISTANT_ACCOUNT_ENTRY = 'bench/entries/distant-account.ts';


/**
 * Starts one Miniflare (its own workerd process); returns its direct socket URL, workerd PIDs and
 * `stop()`. `moreWorkers` (each with its `name`) run in the same workerd, each in an isolate of its
 * own with its own socket (`urls`, after the first Worker's).
 */
export async function startMiniflare(label, workerOptions, persistDir, sharedOptions = {}, moreWorkers = []) {
  const before = new Set(childPids(process.pid).map((p) => p.pid));
  const options = convertV4MiniflareOptions({
    host: HOST,
    port: 0,
    log: new Log(LogLevel.WARN),
    logRequests: false,
    cf: false, // the placeholder `request.cf`; no fetch of workers.cloudflare.com
    resourcePersistencePath: persistDir,
    telemetry: { enabled: false },
    ...sharedOptions,
    workers: [
      {
        ...workerOptions,
        name: label,
        // Straight into the Worker's fetch handler: no Miniflare entry worker, no wrangler proxy.
        unsafeDirectSockets: [{ host: HOST, port: 0 }],
      },
      ...moreWorkers.map((worker) => ({ ...worker, unsafeDirectSockets: [{ host: HOST, port: 0 }] })),
    ],
  });
  const mf = new Miniflare(options);
  let workerdPids = [];
  let stopping = null;
  const stop = () =>
    (stopping ??= (async () => {
      await Promise.race([mf.dispose().catch(() => {}), sleep(5000)]);
      await stopPids(workerdPids);
    })());
  cleanups.push(stop);
  await mf.ready;
  const url = (await mf.unsafeGetDirectURL(label)).toString().replace(/\/$/, '');
  const urls = [url];
  for (const worker of moreWorkers) urls.push((await mf.unsafeGetDirectURL(worker.name)).toString().replace(/\/$/, ''));
  const spawned = childPids(process.pid).filter((p) => !before.has(p.pid));
  const workerd = spawned.flatMap((p) => [p, ...descendants(p.pid)]).filter((p) => p.comm.includes('workerd'));
  workerdPids = workerd.map((p) => p.pid);
  if (workerd.length === 0) log(`warning: no workerd process found for ${label}; RSS will read 0`);
  return { mf, url, urls, pids: workerdPids, stop };
}

/** The baseline Worker: forwards the body to the upstream and streams the answer back. */
export function passthroughWorkerOptions(config, upstreamUrl) {
  return {
    modules: [{ type: 'ESModule', path: path.join(BENCH_DIR, 'passthrough-worker.mjs') }],
    modulesRoot: BENCH_DIR,
    compatibilityDate: config.compatibility_date,
    compatibilityFlags: config.compatibility_flags,
    bindings: { UPSTREAM_BASE_URL: upstreamUrl, OPENAI_API_KEY: UPSTREAM_KEY },
  };
}

/**
 * The pass-through Worker with the gateway's bindings (bench/passthrough-bound-worker.mjs): Miniflare
 * starts the same local D1, R2, Queues and SQLite Durable Object plumbing for it as for the gateway,
 * so a fresh gateway's cold start over this row is what the gateway's own code adds.
 */
export function boundPassthroughWorkerOptions(bundleDir, config, upstreamUrl) {
  const { modules: _modules, modulesRoot: _root, bindings, ...plumbing } = gatewayWorkerOptions(bundleDir, config, upstreamUrl);
  return {
    ...plumbing,
    modules: ['passthrough-bound-worker.mjs', 'passthrough-worker.mjs'].map((file) => ({ type: 'ESModule', path: path.join(BENCH_DIR, file) })),
    modulesRoot: BENCH_DIR,
    bindings: { ...bindings, UPSTREAM_BASE_URL: upstreamUrl, OPENAI_API_KEY: UPSTREAM_KEY },
  };
}

export function gatewayWorkerOptions(bundleDir, config, upstreamUrl) {
  const sqliteClasses = new Set((config.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  const main = mainModule(bundleDir);
  // The build's lazily imported modules sit in a folder of their own (build/lazy-modules/).
  const modules = readdirSync(bundleDir, { recursive: true })
    .filter((file) => /\.(m?js|sql)$/.test(file))
    .map((file) => ({ type: file === main ? 'ESModule' : moduleType(file, config), path: path.join(bundleDir, file) }))
    // the entry module first
    .sort((a, b) => (path.basename(a.path) === main ? -1 : path.basename(b.path) === main ? 1 : 0));
  const built = path.join(bundleDir, COMPATIBILITY_FILE);
  const compatibility = existsSync(built) ? JSON.parse(readFileSync(built, 'utf8')) : { date: config.compatibility_date, flags: config.compatibility_flags };
  return {
    modules,
    modulesRoot: bundleDir,
    compatibilityDate: compatibility.date,
    compatibilityFlags: compatibility.flags,
    bindings: {
      ...Object.fromEntries(Object.entries(config.vars ?? {})),
      OPENAI_API_KEY: UPSTREAM_KEY,
      OPENAI_BASE_URL: upstreamUrl,
      ADMIN_TOKEN,
    },
    durableObjects: Object.fromEntries(
      (config.durable_objects?.bindings ?? []).map((b) => [b.name, { className: b.class_name, useSQLite: sqliteClasses.has(b.class_name) }]),
    ),
    kvNamespaces: (config.kv_namespaces ?? []).map((k) => k.binding),
    d1Databases: (config.d1_databases ?? []).map((d) => d.binding),
    r2Buckets: (config.r2_buckets ?? []).map((r) => r.binding),
    queueProducers: Object.fromEntries((config.queues?.producers ?? []).map((q) => [q.binding, { queueName: q.queue }])),
    queueConsumers: Object.fromEntries(
      (config.queues?.consumers ?? []).map((q) => [
        q.queue,
        { maxBatchSize: q.max_batch_size, maxBatchTimeout: q.max_batch_timeout, maxRetries: q.max_retries },
      ]),
    ),
  };
}

export async function applyMigrations(mf, config) {
  const db = await mf.getD1Database('DB');
  const dir = path.join(ROOT, config.d1_databases?.[0]?.migrations_dir ?? 'migrations');
  const files = readdirSync(dir).filter((f) => f.endsWith('.sql')).sort();
  for (const file of files) {
    const statements = readFileSync(path.join(dir, file), 'utf8')
      .split('--> statement-breakpoint')
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch(statements.map((s) => db.prepare(s)));
  }
  return files;
}

export async function setupGateway(client, gatewayUrl) {
  const registered = await client.request(`${gatewayUrl}/agent/register`, { type: 'anonymous' });
  if (registered.status !== 200 && registered.status !== 201) {
    throw new Error(`POST /agent/register answered ${registered.status}: ${registered.body}`);
  }
  const { api_key: apiKey, account_id: accountId } = JSON.parse(registered.body);
  const credited = await client.request(
    `${gatewayUrl}/admin/accounts/${accountId}/credits`,
    { amount_usd: '100000', reason: 'bench' },
    { Authorization: `Bearer ${ADMIN_TOKEN}` },
  );
  if (credited.status !== 200 && credited.status !== 201) {
    throw new Error(`POST /admin/accounts/${accountId}/credits answered ${credited.status}: ${credited.body}`);
  }
  return { apiKey, accountId };
}

// ---------------------------------------------------------------------------------------------
// Measurements.
/** Sequential requests; returns the total times (and times to first byte) of the last `n`. */
export async function sequential(client, target, body, n, warmup = 0) {
  const total = [];
  const ttfb = [];
  for (let i = 0; i < warmup + n; i++) {
    const res = await client.request(target.url, body, target.headers);
    if (res.status !== 200 || (body.stream && !res.body.includes('data: [DONE]'))) {
      throw new Error(`${target.name}${body.stream ? ' (stream)' : ''}: status ${res.status}: ${res.body.slice(0, 300)}`);
    }
    if (i >= warmup) {
      total.push(res.totalMs);
      ttfb.push(res.ttfbMs);
    }
  }
  return { total, ttfb };
}

/**
 * Runs `measure(target, round)` for every target in turn, `rounds` times over, so that load from
 * other processes on the machine falls on all targets alike instead of on whichever ran then.
 */
export async function interleaved(targets, rounds, measure) {
  const out = new Map(targets.map((t) => [t.key, []]));
  for (let round = 0; round < rounds; round++) {
    for (const t of targets) out.get(t.key).push(await measure(t, round));
  }
  return out;
}

export const sorted = (values) => [...values].sort((a, b) => a - b);

export function cannon(target, body, seconds) {
  return autocannon({
    url: target.url,
    method: target.method ?? 'POST',
    headers: body === undefined ? target.headers : { 'Content-Type': 'application/json', ...target.headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    connections: CONCURRENCY,
    pipelining: 1,
    duration: seconds,
  });
}

// ---------------------------------------------------------------------------------------------
// The isolate's inspector (bench/profile.mjs, bench/profile-member.mjs).
/**
 * A DevTools protocol session with the isolate of the Worker `label` (Miniflare started with
 * `inspectorPort: 0`), its Profiler enabled at `intervalUs`: `send(method, params)` and `close()`.
 */
export async function openInspector(mf, label, intervalUs = 50) {
  const { host } = await mf.getInspectorURL();
  const list = await (await fetch(`http://${host}/json`)).json();
  const entry = list.find((e) => e.title?.endsWith(`core:user:${label}`)) ?? list[0];
  const ws = new WebSocket(entry.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
  let id = 0;
  const pending = new Map();
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.id && pending.has(msg.id)) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  };
  const send = (method, params = {}) => new Promise((resolve) => {
    const n = ++id;
    pending.set(n, resolve);
    ws.send(JSON.stringify({ id: n, method, params }));
  });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: intervalUs });
  return { send, close: () => ws.close() };
}
