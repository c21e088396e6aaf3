// Compares gateway bundles against the pass-through Worker: `node bench/compare.mjs <bundle dir>...`
// (a bundle dir is what `wrangler deploy --dry-run --outdir <dir>` writes; build one per commit
// to compare). Each round starts every target fresh, on its own, with its state on tmpfs, and
// measures c=1 latency, stream time to first byte, c=32 throughput and the workerd CPU time each
// request costs; rounds alternate so that a slow spell of the machine falls on every target.
// COMPARE_ROUNDS (3) and COMPARE_SECONDS (4) set the work.
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import {
  CHAT_BODY, ROOT, applyMigrations, cannon, cleanups, cpuSeconds, gatewayWorkerOptions, makeClient, num,
  passthroughWorkerOptions, runMain, sequential, setupGateway, startMiniflare, startUpstream, stopPids,
} from './lib.mjs';

const ROUNDS = num('COMPARE_ROUNDS', 3);
const SECONDS = num('COMPARE_SECONDS', 4);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function start(target, config, upstream, client, state) {
  if (target.dir === null) {
    const mf = await startMiniflare('passthrough', passthroughWorkerOptions(config, upstream.url), state);
    const streamBody = { ...CHAT_BODY, stream: true, stream_options: { include_usage: true } };
    return { mf, request: { name: target.name, url: `${mf.url}/v1/chat/completions`, headers: {}, streamBody } };
  }
  const mf = await startMiniflare(target.name, gatewayWorkerOptions(target.dir, config, upstream.url), state);
  await applyMigrations(mf.mf, config);
  const { apiKey } = await setupGateway(client, mf.url);
  const request = { name: target.name, url: `${mf.url}/v1/chat/completions`, headers: { Authorization: `Bearer ${apiKey}` }, streamBody: { ...CHAT_BODY, stream: true } };
  return { mf, request };
}

async function main() {
  const dirs = process.argv.slice(2).map((dir) => path.resolve(dir));
  if (dirs.length === 0) throw new Error('usage: node bench/compare.mjs <bundle dir>...');
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const upstream = await startUpstream();
  const client = makeClient();
  cleanups.push(() => client.close());
  const targets = [{ dir: null, name: 'pass-through' }, ...dirs.map((dir) => ({ dir, name: path.basename(dir) }))].map((t) => ({ ...t, cpu: [], rps: [], ttfb: [], latency: [] }));

  for (let round = 0; round < ROUNDS; round++) {
    for (const target of targets) {
      const state = mkdtempSync('/dev/shm/gateway-compare-');
      try {
        const { mf, request } = await start(target, config, upstream, client, state);
        target.ttfb.push(...(await sequential(client, request, request.streamBody, 100, 20)).ttfb);
        target.latency.push(...(await sequential(client, request, CHAT_BODY, 500, 100)).total);
        await cannon(request, CHAT_BODY, 1);
        const before = cpuSeconds(mf.pids).ours;
        const load = await cannon(request, CHAT_BODY, SECONDS);
        if (load.non2xx || load.errors) throw new Error(`${target.name}: ${load.non2xx} non-2xx answers, ${load.errors} errors under load`);
        target.cpu.push(((cpuSeconds(mf.pids).ours - before) / load.requests.total) * 1e6);
        target.rps.push(load.requests.total / SECONDS);
        await mf.mf.dispose();
        await stopPids(mf.pids);
      } finally {
        rmSync(state, { recursive: true, force: true });
      }
    }
  }

  const base = targets[0];
  const added = (t, key) => (t === base ? '' : ` (+${(median(t[key]) - median(base[key])).toFixed(2)})`);
  console.log('| target | c=1 p50 (ms) | stream TTFB p50 (ms) | req/s at c=32 | workerd CPU per request (µs), per round |');
  console.log('|:--|--:|--:|--:|--:|');
  for (const t of targets) {
    const share = t === base ? '' : ` (${Math.round((median(t.rps) / median(base.rps)) * 100)} %)`;
    console.log(`| ${t.name} | ${median(t.latency).toFixed(2)}${added(t, 'latency')} | ${median(t.ttfb).toFixed(2)}${added(t, 'ttfb')} | ${Math.round(median(t.rps))}${share} | ${Math.round(median(t.cpu))} (${t.cpu.map(Math.round).join(', ')}) |`);
  }
}

await runMain(main);
