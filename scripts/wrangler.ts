/**
 * Runs the project's own wrangler (the pinned devDependency) on the Node that runs this script,
 * so `node scripts/x.ts` works with or without npm's PATH.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The project's root: the folder holding wrangler.toml. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WRANGLER = fileURLToPath(new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url));

export interface WranglerResult {
  code: number;
  /** stdout alone (where `--json` answers go). */
  stdout: string;
  /** stdout and stderr together, in the order they came. */
  output: string;
}

/** Runs `wrangler ...args` to completion and returns its exit code and output (never throws on a non-zero exit). */
export function runWrangler(args: string[], options: { env?: NodeJS.ProcessEnv } = {}): Promise<WranglerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      output += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, output }));
  });
}

/**
 * Runs `wrangler ...args` with the terminal attached and resolves with its exit code. SIGINT and
 * SIGTERM sent to this process are passed on, so stopping `npm start` stops wrangler dev.
 */
export function runWranglerAttached(args: string[], options: SpawnOptions = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRANGLER, ...args], { cwd: ROOT, stdio: 'inherit', ...options });
    const forward = (signal: NodeJS.Signals) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}
