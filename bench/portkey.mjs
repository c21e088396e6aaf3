// The Portkey AI gateway (`@portkey-ai/gateway`, a devDependency) as a row of `npm run bench`:
// its Node server (build/start-server.js, the package's bin) started with `--headless` (no log
// UI) on a free port, in front of the same local upstream. Portkey routes by headers: provider
// `openai`, `x-portkey-custom-host` the upstream's /v1 (127.0.0.1 is among its default trusted
// custom hosts), the upstream key as the bearer. `@hono/node-server` is held at 1.13.5 through
// package.json `overrides`: with newer ones its streams fail with `TypeError: immutable`.
import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { BENCH_DIR, CHAT_BODY, HOST, UPSTREAM_KEY, cleanups, sleep, stopPids } from './lib.mjs';

const SERVER = path.join(BENCH_DIR, '..', 'node_modules', '@portkey-ai', 'gateway', 'build', 'start-server.js');

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Starts Portkey; returns its chat URL, the headers that route to `upstreamUrl`, its PID and `stop()`. */
export async function startPortkey(client, upstreamUrl) {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER, '--headless', `--port=${port}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
  const stop = () => stopPids([child.pid]);
  cleanups.push(stop);
  const url = `http://${HOST}:${port}/v1/chat/completions`;
  const headers = { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamUrl}/v1`, Authorization: `Bearer ${UPSTREAM_KEY}` };
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`Portkey exited with ${child.exitCode}: ${stderr}`);
    const res = await client.request(url, CHAT_BODY, headers).catch(() => null);
    if (res?.status === 200) break;
    if (i >= 150) throw new Error(`Portkey did not answer within 30 s (${res?.status} ${res?.body?.slice(0, 200)}): ${stderr}`);
    await sleep(200);
  }
  return { url, headers, pid: child.pid, stop, stderr: () => stderr };
}
