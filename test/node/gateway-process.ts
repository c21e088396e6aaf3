import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const WRANGLER = join(ROOT, 'node_modules/.bin/wrangler');

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

function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(WRANGLER, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

export interface RunningGateway {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the gateway as `npm start` does (migrations, then `wrangler dev`) in its own state
 * directory, with `vars` as configuration, and waits until `/health` answers.
 */
export async function startGateway(vars: Record<string, string>): Promise<RunningGateway> {
  const state = mkdtempSync(join(tmpdir(), 'gateway-e2e-'));
  const env = { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' };
  const migrate = run(['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], env);
  const migrated = await new Promise<number | null>((resolve) => migrate.on('exit', resolve));
  if (migrated !== 0) throw new Error(`D1 migrations failed (${migrated})`);

  const port = await freePort();
  const varArgs = Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]);
  const child = run(['dev', '--port', String(port), '--inspector-port', String(await freePort()), '--persist-to', state, ...varArgs], env);
  let log = '';
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${log}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      stopProcess(child);
      throw new Error(`wrangler dev did not answer within 60 s:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    url,
    output: () => log,
    stop: async () => {
      stopProcess(child);
      await new Promise((resolve) => (child.exitCode === null ? child.on('exit', resolve) : resolve(null)));
      rmSync(state, { recursive: true, force: true });
    },
  };
}

/** Stops the process group we started (wrangler and its workerd), by PID. */
function stopProcess(child: ChildProcess): void {
  if (child.pid && child.exitCode === null) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
