// Startup CPU (issue #25): `wrangler check startup` on the gateway as `wrangler.toml` builds it
// (scripts/build.ts, through `wrangler deploy --dry-run`), interleaved BENCH_STARTUP_N (5) times with
// an empty Worker of the same compatibility settings. Its "Active" figure is the CPU sampled while
// workerd imports the main module; it also charges to the startup the gap before the profiler's first
// sample (20-40 ms on a loaded machine, an empty Worker's whole figure, or 0 when it samples nothing),
// so each run also gives "after the first sample": the JS sampled once the import is under way.
// Medians are reported. Alone: `node bench/startup.mjs`.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { unstable_readConfig } from 'wrangler';
import { BENCH_DIR, ROOT, log, num, percentile, sorted } from './lib.mjs';

const run = promisify(execFile);
const STARTUP_N = num('BENCH_STARTUP_N', 5);
/** The target: a cold isolate's module scope under 25 ms of CPU. */
export const STARTUP_LIMIT_MS = 25;
const wrangler = (args) =>
  run('npx', ['wrangler', ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' } });

/** The gateway's upload (`wrangler deploy --dry-run --outfile`, the build included) and an empty Worker's. */
async function buildBundles(dir) {
  const gateway = path.join(dir, 'gateway.bundle');
  await wrangler(['deploy', '--dry-run', '--outfile', gateway]);
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const emptyDir = path.join(dir, 'empty');
  mkdirSync(emptyDir, { recursive: true });
  writeFileSync(path.join(emptyDir, 'index.js'), 'export default { fetch() { return new Response("ok"); } };\n');
  writeFileSync(
    path.join(emptyDir, 'wrangler.toml'),
    `name = "empty"\nmain = "index.js"\ncompatibility_date = "${config.compatibility_date}"\ncompatibility_flags = ${JSON.stringify(config.compatibility_flags)}\n`,
  );
  const empty = path.join(dir, 'empty.bundle');
  await wrangler(['deploy', '--dry-run', '-c', path.join(emptyDir, 'wrangler.toml'), '--outfile', empty]);
  return { gateway, empty };
}

/** The CPU sampled after the profile's first non-idle sample (ms): what the import itself ran. */
function afterFirstSample(profileFile) {
  const profile = JSON.parse(readFileSync(profileFile, 'utf8'));
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  let first = true;
  let micros = 0;
  profile.samples.forEach((sample, i) => {
    if (names.get(sample) === '(idle)') return;
    if (!first) micros += profile.timeDeltas[i] ?? 0;
    first = false;
  });
  return micros / 1000;
}

/** One `wrangler check startup` of a built upload: Active and garbage-collection figures, after the first sample (ms), gzip size (KiB). */
async function checkStartup(bundle, outfile) {
  const { stdout, stderr } = await wrangler(['check', 'startup', '--worker', bundle, '--outfile', outfile]);
  const text = stdout + stderr;
  const active = /Active: ([\d.]+) ms \(including ([\d.]+) ms garbage collection\)/.exec(text);
  const gzip = /gzip: ([\d.]+) KiB/.exec(text);
  if (!active) throw new Error(`wrangler check startup printed no Active figure:\n${text.slice(-2000)}`);
  return { activeMs: Number(active[1]), gcMs: Number(active[2]), afterFirstMs: afterFirstSample(outfile), gzipKiB: gzip ? Number(gzip[1]) : NaN };
}

/** Medians of each figure over runs, and every run's Active figure. */
function summary(runs) {
  const median = (k) => percentile(sorted(runs.map((r) => r[k])), 50);
  return { activeMs: median('activeMs'), gcMs: median('gcMs'), afterFirstMs: median('afterFirstMs'), gzipKiB: median('gzipKiB'), runs: runs.map((r) => r.activeMs) };
}

/** Runs the check STARTUP_N times on the gateway and on an empty Worker, interleaved; medians, every run's, the profiles' folder. */
export async function measureStartup() {
  const dir = path.join(BENCH_DIR, '.out', 'startup');
  mkdirSync(dir, { recursive: true });
  const bundles = await buildBundles(dir);
  const runs = { gateway: [], empty: [] };
  for (let i = 0; i < STARTUP_N; i++) {
    for (const name of ['gateway', 'empty']) {
      runs[name].push(await checkStartup(bundles[name], path.join(dir, `${name}-${i + 1}.cpuprofile`)));
      log(`startup: ${name} run ${i + 1}/${STARTUP_N}: ${runs[name].at(-1).activeMs} ms active, ${runs[name].at(-1).afterFirstMs} ms after the first sample`);
    }
  }
  return { ...summary(runs.gateway), empty: summary(runs.empty), dir };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await measureStartup();
  console.log(
    `startup CPU, medians of ${s.runs.length}: gateway ${s.activeMs} ms Active (runs ${s.runs.join(', ')}; gc ${s.gcMs} ms), ${s.afterFirstMs.toFixed(1)} ms after the first sample; ` +
      `empty Worker ${s.empty.activeMs} ms Active (runs ${s.empty.runs.join(', ')}), ${s.empty.afterFirstMs.toFixed(1)} ms after the first sample; modules gzip ${s.gzipKiB} KiB; target < ${STARTUP_LIMIT_MS} ms`,
  );
}
