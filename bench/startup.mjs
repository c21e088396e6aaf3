// Startup CPU (issue #25): `wrangler check startup` on the gateway as `wrangler.toml` builds it, run
// BENCH_STARTUP_N (3) times; its "Active" figure is the CPU sampled while workerd imports the main
// module (module scope: what a cold isolate spends before it can answer). Medians are reported.
// Alone: `node bench/startup.mjs`.
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR, ROOT, log, num, percentile, sorted } from './lib.mjs';

const run = promisify(execFile);
const STARTUP_N = num('BENCH_STARTUP_N', 3);
/** The target: a cold isolate's module scope under 25 ms of CPU. */
export const STARTUP_LIMIT_MS = 25;

/** One `wrangler check startup`: its Active and garbage-collection figures (ms) and the bundle's gzip size (KiB). */
async function checkStartup(outfile) {
  const { stdout, stderr } = await run('npx', ['wrangler', 'check', 'startup', '--outfile', outfile], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const text = stdout + stderr;
  const active = /Active: ([\d.]+) ms \(including ([\d.]+) ms garbage collection\)/.exec(text);
  const gzip = /gzip: ([\d.]+) KiB/.exec(text);
  if (!active) throw new Error(`wrangler check startup printed no Active figure:\n${text.slice(-2000)}`);
  return { activeMs: Number(active[1]), gcMs: Number(active[2]), gzipKiB: gzip ? Number(gzip[1]) : NaN };
}

/** Runs the check STARTUP_N times; the median Active figure, every run's, and the profiles' folder. */
export async function measureStartup() {
  const dir = path.join(BENCH_DIR, '.out', 'startup');
  mkdirSync(dir, { recursive: true });
  const runs = [];
  for (let i = 0; i < STARTUP_N; i++) {
    runs.push(await checkStartup(path.join(dir, `startup-${i + 1}.cpuprofile`)));
    log(`startup: run ${i + 1}/${STARTUP_N}: ${runs.at(-1).activeMs} ms active`);
  }
  const median = (k) => percentile(sorted(runs.map((r) => r[k])), 50);
  return { activeMs: median('activeMs'), gcMs: median('gcMs'), gzipKiB: median('gzipKiB'), runs: runs.map((r) => r.activeMs), dir };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await measureStartup();
  console.log(`startup CPU, median of ${s.runs.length}: ${s.activeMs} ms (runs ${s.runs.join(', ')}; gc ${s.gcMs} ms); bundle gzip ${s.gzipKiB} KiB; target < ${STARTUP_LIMIT_MS} ms`);
}
