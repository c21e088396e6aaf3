import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
/** What `npm start` and `npm run deploy` need of the project (a fresh clone's files); node_modules is linked, not copied. */
export const PROJECT_FILES = ['package.json', 'package-lock.json', 'wrangler.toml', 'tsconfig.json', 'worker-configuration.d.ts', '.dev.vars.example', 'scripts', 'src', 'durable-objects', 'migrations'];

/** A temporary copy of the project, as a fresh clone after `npm install` (node_modules linked). */
export function copyProject(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const file of PROJECT_FILES) cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

/**
 * A port on 127.0.0.1 where nothing listens, for "a refused connection": below the ephemeral range,
 * so no simulator or gateway of a test file running alongside (the node project runs two at once)
 * can be given it, as a port found free and closed again can.
 */
export const CLOSED_PORT = 1;

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface RunningGateway {
  url: string;
  /** The copy of the project it runs in, with its `.dev.vars` and its `.wrangler/state`. */
  dir: string;
  output: () => string;
  /** Kills the whole process group at once (no shutdown), as a crash or an eviction would. */
  crash: () => Promise<void>;
  /** `npm start` again in the same copy, on the same port and the same local state. */
  restart: () => Promise<void>;
  stop: () => Promise<void>;
}

/** `.dev.vars` as an operator writes it: one `NAME=value` per line. */
export function devVarsFile(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n')
    .concat('\n');
}

/**
 * `.dev.vars` as the README's quick start makes it: `.dev.vars.example` copied, with the values of
 * `overrides` filled in (every other name keeps the example's value, most of them empty).
 */
export function devVarsFromExample(overrides: Record<string, string>): string {
  const example = readFileSync(join(ROOT, '.dev.vars.example'), 'utf8');
  const missing = Object.keys(overrides).filter((name) => !new RegExp(`^${name}=`, 'm').test(example));
  const filled = example.replace(/^([A-Z0-9_]+)=.*$/gm, (line, name: string) => (name in overrides ? `${name}=${overrides[name]}` : line));
  return [filled, ...missing.map((name) => `${name}=${overrides[name]}`)].join('\n');
}

/** The names `.dev.vars.example` documents, in order. */
export function exampleNames(): string[] {
  return Array.from(readFileSync(join(ROOT, '.dev.vars.example'), 'utf8').matchAll(/^([A-Z0-9_]+)=/gm), (match) => match[1]!);
}

/**
 * Starts the gateway exactly as the README says: a copy of the project with `vars` written to
 * its `.dev.vars` (or `devVars` as the file's text; `devVars: null` writes none, as on a fresh
 * clone, and `npm start` creates it), then `npm start -- --port N` (D1 migrations, then
 * `wrangler dev`), and waits until `/health` answers. Nothing reaches the Worker by any other door.
 */
export async function startGateway(vars: Record<string, string> | { devVars: string | null }): Promise<RunningGateway> {
  const dir = copyProject('gateway-e2e-');
  const devVars = 'devVars' in vars ? vars.devVars : devVarsFile(vars);
  if (devVars !== null) writeFileSync(join(dir, '.dev.vars'), devVars);

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  let child: ChildProcess;
  const start = async () => {
    // A restart right after a crash may find a socket of the killed runtime not yet released by the
    // kernel ("Address already in use"): the start is tried again a moment later, a few times.
    for (let attempt = 1; ; attempt++) {
      const from = log.length;
      child = spawn('npm', ['start', '--', '--port', String(port)], {
        cwd: dir,
        env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      child.stdout?.on('data', (chunk) => (log += chunk));
      child.stderr?.on('data', (chunk) => (log += chunk));
      try {
        await waitForHealth(url, child, () => log);
        return;
      } catch (err) {
        if (attempt >= 5 || !log.slice(from).includes('Address already in use')) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    }
  };
  await start();

  const kill = async (signal: NodeJS.Signals) => {
    signalGroup(child, signal);
    await exited(child);
  };
  return {
    url,
    dir,
    output: () => log,
    crash: () => kill('SIGKILL'),
    restart: start,
    stop: async () => {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      signalGroup(child, 'SIGTERM');
      throw new Error(`npm start did not answer within 90 s:\n${log()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signals the process group we started (npm, wrangler and its workerd), by PID. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.on('exit', () => resolve()));
}
