// Cold starts alone (issue #25): a fresh workerd to its first GET /health and to its first chat
// answer, for the gateway built from this tree and, with BENCH_COLD_BASE=<a `wrangler deploy --dry-run --outdir` folder of another
// tree>, for that bundle too, interleaved in the same session; medians of BENCH_COLD_N (5). The pass-through
// Worker's first forwarded completion is the floor, bare and with the gateway's bindings (the same local
// D1, R2, Queues and Durable Object plumbing). Alone: `node bench/cold.mjs`.
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { unstable_readConfig } from 'wrangler';
import {
  BENCH_DIR, CHAT_BODY, ROOT, applyMigrations, boundPassthroughWorkerOptions, buildGateway, gatewayWorkerOptions, log, makeClient, num, passthroughWorkerOptions,
  percentile, runMain, setupGateway, sorted, startMiniflare, startUpstream,
} from './lib.mjs';

const mono = () => Number(process.hrtime.bigint()) / 1e6;
const N = num('BENCH_COLD_N', 5);
const median = (xs) => percentile(sorted(xs), 50);

async function main() {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const builds = { gateway: buildGateway(path.join(BENCH_DIR, '.out', 'cold-gateway')) };
  if (process.env.BENCH_COLD_BASE) builds.base = process.env.BENCH_COLD_BASE;
  const upstream = await startUpstream();
  const client = makeClient();
  const stateRoot = mkdtempSync(path.join(os.tmpdir(), 'gateway-cold-'));
  try {
    const keys = {};
    for (const [name, dir] of Object.entries(builds)) {
      const instance = await startMiniflare(`cold-${name}`, gatewayWorkerOptions(dir, config, upstream.url), path.join(stateRoot, name));
      await applyMigrations(instance.mf, config);
      keys[name] = (await setupGateway(client, instance.url)).apiKey;
      await instance.stop();
    }
    const runs = {};
    const first = async (row, kind, label, options, dir, apiKey) => {
      const t0 = mono();
      const instance = await startMiniflare(label, options, dir);
      const ready = mono();
      const res = await (kind === 'health'
        ? fetch(`${instance.url}/health`)
        : fetch(`${instance.url}/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) }, body: JSON.stringify(CHAT_BODY) }));
      await res.arrayBuffer();
      const answered = mono();
      await instance.stop();
      if (res.status !== 200) throw new Error(`cold ${row}: ${res.status}`);
      (runs[row] ??= []).push({ ready: ready - t0, first: answered - ready });
    };
    for (let i = 0; i < N; i++) {
      for (const [name, dir] of Object.entries(builds)) {
        const options = gatewayWorkerOptions(dir, config, upstream.url);
        await first(`${name} /health`, 'health', `cold-${name}`, options, path.join(stateRoot, name));
        await first(`${name} chat`, 'chat', `cold-${name}`, options, path.join(stateRoot, name), keys[name]);
      }
      await first('pass-through chat', 'chat', 'cold-passthrough', passthroughWorkerOptions(config, upstream.url), path.join(stateRoot, 'passthrough'));
      await first("pass-through chat, the gateway's bindings", 'chat', 'cold-passthrough-bound', boundPassthroughWorkerOptions(builds.gateway, config, upstream.url), path.join(stateRoot, 'passthrough-bound'));
      log(`cold: round ${i + 1}/${N}`);
    }
    console.log(`| fresh workerd, medians of ${N} (ms) | new Miniflare → ready | ready → first 200 |`);
    console.log('|---|---:|---:|');
    for (const [row, list] of Object.entries(runs)) console.log(`| ${row} | ${median(list.map((r) => r.ready)).toFixed(1)} | ${median(list.map((r) => r.first)).toFixed(1)} |`);
  } finally {
    client.close();
    rmSync(stateRoot, { recursive: true, force: true });
  }
}

await runMain(main);
