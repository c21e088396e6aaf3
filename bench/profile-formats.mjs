// Where a chat wire format's CPU goes (not part of `npm run bench`): `node bench/profile-formats.mjs`.
// One unminified gateway on the bench upstream (which speaks Chat Completions, Messages and
// Responses); for each target a V8 CPU profile of the isolate over PROFILE_N sequential requests,
// then the functions by inclusive time per request, and what the first target spends over the
// second. PROFILE_TARGETS=messages-anthropic,chat-anthropic (the default) picks two of
// bench/formats.mjs's targets; PROFILE_STREAM=1 streams them.
import path from 'node:path';
import os from 'node:os';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { unstable_readConfig } from 'wrangler';
import {
  BENCH_DIR, ROOT, UPSTREAM_KEY, applyMigrations, buildGateway, cleanups, gatewayWorkerOptions, log, makeClient, openInspector,
  runMain, setupGateway, startMiniflare, startUpstream,
} from './lib.mjs';
import { FORMAT_PATHS, FORMAT_TARGETS, formatBody } from './formats.mjs';

const N = Number(process.env.PROFILE_N ?? 2000);
const STREAM = process.env.PROFILE_STREAM === '1';
const KEYS = (process.env.PROFILE_TARGETS ?? 'messages-anthropic,chat-anthropic').split(',');

async function main() {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const bundle = buildGateway(path.join(BENCH_DIR, '.out', 'gateway-names'), undefined, ['--no-minify']);
  const upstream = await startUpstream();
  const state = mkdtempSync(path.join(os.tmpdir(), 'gateway-profile-formats-'));
  cleanups.push(() => rmSync(state, { recursive: true, force: true }));
  const options = gatewayWorkerOptions(bundle, config, upstream.url);
  options.bindings = { ...options.bindings, ANTHROPIC_API_KEY: UPSTREAM_KEY, ANTHROPIC_BASE_URL: upstream.url };
  const gateway = await startMiniflare('profile-formats', options, state, { inspectorPort: 0 });
  cleanups.push(() => gateway.stop());
  await applyMigrations(gateway.mf, config);
  const client = makeClient();
  cleanups.push(() => client.close());
  const { apiKey } = await setupGateway(client, gateway.url);
  const headers = { Authorization: `Bearer ${apiKey}` };
  const targets = KEYS.map((key) => FORMAT_TARGETS.find((t) => t.key === key) ?? fail(`no target ${key}`));
  const send = (t) => client.request(`${gateway.url}${FORMAT_PATHS[t.format]}`, { ...formatBody(t), ...(STREAM && { stream: true }) }, headers);
  for (const t of targets) for (let i = 0; i < 200; i++) await send(t);

  const tables = [];
  for (const t of targets) {
    const { send: cdp, close } = await openInspector(gateway.mf, 'profile-formats', 50);
    await cdp('Profiler.start');
    for (let i = 0; i < N; i++) {
      const res = await send(t);
      if (res.status !== 200) throw new Error(`${t.name}: ${res.status} ${res.body.slice(0, 200)}`);
    }
    const { result } = await cdp('Profiler.stop');
    close();
    const file = path.join(BENCH_DIR, '.out', `${t.key}${STREAM ? '-stream' : ''}.cpuprofile`);
    writeFileSync(file, JSON.stringify(result.profile));
    log(`wrote ${file}`);
    tables.push(times(result.profile));
  }
  const us = (v) => ((v / N)).toFixed(1).padStart(7);
  for (const kind of ['self', 'inclusive']) {
    const [a, b] = tables.map((t) => t[kind]);
    const rows = [...new Set([...a.keys(), ...b.keys()])].map((fn) => ({ fn, a: a.get(fn) ?? 0, b: b.get(fn) ?? 0 }));
    console.log(`\nµs per request, ${kind} (sampled every 50 µs over ${N} requests${STREAM ? ', streamed' : ''}): ${targets[0].name} | ${targets[1].name}`);
    for (const r of [...rows].sort((x, y) => y.a - x.a).slice(0, 30)) console.log(`${us(r.a)} ${us(r.b)}  ${r.fn}`);
    console.log(`\nwhat ${targets[0].name} spends over ${targets[1].name} (µs per request, ${kind}):`);
    for (const r of [...rows].sort((x, y) => (y.a - y.b) - (x.a - x.b)).slice(0, 30)) console.log(`${us(r.a - r.b)}  ${r.fn}`);
  }
  log('done');
}

function fail(message) {
  throw new Error(message);
}

/** Sampled time (µs) by function name and position: its own (`self`) and with its callees (`inclusive`). */
function times(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (f) => `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '[native]'}`;
  const self = new Map();
  const out = new Map();
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(id);
    self.set(name(leaf.callFrame), (self.get(name(leaf.callFrame)) ?? 0) + dt);
    const seen = new Set();
    for (let cur = leaf; cur; cur = byId.get(parent.get(cur.id))) {
      if (cur.callFrame.functionName === '(root)') continue;
      const key = name(cur.callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      out.set(key, (out.get(key) ?? 0) + dt);
    }
  });
  return { self, inclusive: out };
}

await runMain(main);
