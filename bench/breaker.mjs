// The breaker section of `npm run bench` (issue 39): the time an open route breaker saves a request
// whose first route hangs until its timeout. Two gateways on the same bench upstream: OpenAI's
// route points at a server that accepts connections and never answers, Claude Haiku (the bench
// upstream's Messages) is the request's fallback model (`models`). With the breaker off every
// request waits for the header timeout, then fails over; with it on (its default 3 failures) the
// first requests do the same, and once it is open a request goes straight to the fallback. The
// healthy path (Claude Haiku asked directly) is timed on both gateways in turns: the breaker's
// whole cost there is a map lookup per attempt.
import http from 'node:http';
import path from 'node:path';
import { applyMigrations, gatewayWorkerOptions, log, num, percentile, setupGateway, sorted, startMiniflare, UPSTREAM_KEY } from './lib.mjs';

const TIMEOUT_MS = num('BENCH_BREAKER_TIMEOUT_MS', 2000);
const N = num('BENCH_BREAKER_N', 300);
const OFF_N = num('BENCH_BREAKER_OFF_N', 3);
const HEALTHY_N = num('BENCH_BREAKER_HEALTHY_N', 500);
const WARMUP = 20;
const MESSAGES = [{ role: 'user', content: 'Say hello' }];
const HANGING = { model: 'openai/gpt-4o-mini', models: ['anthropic/claude-haiku-4-5'], messages: MESSAGES, max_tokens: 16 };
const HEALTHY = { model: 'anthropic/claude-haiku-4-5', messages: MESSAGES, max_tokens: 16 };
/** The breaker's default failure count (src/products/chat/health/breaker.ts, DEFAULT_BREAKER). */
const OPENS_AFTER = 3;

/** A server that takes every request and never answers (its sockets are closed on stop). */
async function startHangingUpstream() {
  const sockets = new Set();
  const server = http.createServer(() => {});
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

async function timed(client, url, body, headers, expectProvider) {
  const res = await client.request(`${url}/v1/chat/completions`, body, headers);
  if (res.status !== 200 || res.headers['x-service-provider'] !== expectProvider) {
    throw new Error(`breaker: status ${res.status}, served by ${res.headers['x-service-provider']}: ${res.body.slice(0, 300)}`);
  }
  return res.totalMs;
}

export async function measureBreaker({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  const hanging = await startHangingUpstream();
  const gateways = [];
  const start = async (label, vars) => {
    const options = gatewayWorkerOptions(bundleDir, config, upstreamUrl);
    options.bindings = {
      ...options.bindings,
      OPENAI_BASE_URL: `${hanging.url}/v1`,
      ANTHROPIC_API_KEY: UPSTREAM_KEY,
      ANTHROPIC_BASE_URL: upstreamUrl,
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
      ...vars,
    };
    const gateway = await startMiniflare(label, options, path.join(stateRoot, label));
    gateways.push(gateway);
    await applyMigrations(gateway.mf, config);
    const { apiKey } = await setupGateway(client, gateway.url);
    return { url: gateway.url, headers: { Authorization: `Bearer ${apiKey}` } };
  };
  try {
    // A cool-down longer than the section, so no probe (which pays the timeout again) falls among the timed requests.
    const on = await start('breaker-on', { ROUTE_BREAKER_COOLDOWN_MS: '600000' });
    const off = await start('breaker-off', { ROUTE_BREAKER_FAILURES: '0' });
    log(`breaker: ${OFF_N} requests against the hanging route with the breaker off, ${OPENS_AFTER} + ${N} with it on; ${HEALTHY_N} healthy requests on each in turns`);
    const offMs = [];
    for (let i = 0; i < OFF_N; i++) offMs.push(await timed(client, off.url, HANGING, off.headers, 'anthropic'));
    const openingMs = [];
    for (let i = 0; i < OPENS_AFTER; i++) openingMs.push(await timed(client, on.url, HANGING, on.headers, 'anthropic'));
    const openMs = [];
    for (let i = 0; i < WARMUP + N; i++) {
      const ms = await timed(client, on.url, HANGING, on.headers, 'anthropic');
      if (i >= WARMUP) openMs.push(ms);
    }
    const healthy = { on: [], off: [] };
    for (let i = 0; i < WARMUP + HEALTHY_N; i++) {
      const order = i % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      for (const key of order) {
        const target = key === 'on' ? on : off;
        const ms = await timed(client, target.url, HEALTHY, target.headers, 'anthropic');
        if (i >= WARMUP) healthy[key].push(ms);
      }
    }
    return report({ offMs, openingMs, openMs, healthy });
  } finally {
    for (const gateway of gateways) await gateway.stop();
    await hanging.stop();
  }
}

function report({ offMs, openingMs, openMs, healthy }) {
  const p50 = (values) => percentile(sorted(values), 50);
  const p99 = (values) => percentile(sorted(values), 99);
  const f = (x) => x.toFixed(2);
  const saved = p50(offMs) - p50(openMs);
  return [
    '### Breaker',
    '',
    `| request (primary route hangs; UPSTREAM_TIMEOUT_MS=${TIMEOUT_MS}; fallback model healthy) | n | p50 (ms) | p99 (ms) |`,
    '|:--|--:|--:|--:|',
    `| breaker off: every request waits for the timeout, then fails over | ${offMs.length} | ${f(p50(offMs))} | ${f(p99(offMs))} |`,
    `| breaker on: the requests until it opens (${OPENS_AFTER} failures) | ${openingMs.length} | ${f(p50(openingMs))} | ${f(p99(openingMs))} |`,
    `| breaker open: straight to the fallback | ${openMs.length} | ${f(p50(openMs))} | ${f(p99(openMs))} |`,
    `| **saved per request once open** (p50 off − p50 open) | | **${f(saved)}** | |`,
    '',
    '| healthy request (Claude Haiku asked directly), in turns | n | p50 (ms) | p99 (ms) |',
    '|:--|--:|--:|--:|',
    `| breaker on | ${healthy.on.length} | ${f(p50(healthy.on))} | ${f(p99(healthy.on))} |`,
    `| breaker off (ROUTE_BREAKER_FAILURES=0) | ${healthy.off.length} | ${f(p50(healthy.off))} | ${f(p99(healthy.off))} |`,
    '',
    `- Two gateways on one bench upstream, c=1; OpenAI's route points at a server that never answers, Claude Haiku (\`models\`) at the bench upstream's Messages. The open breaker's cool-down is set past the section (600 s) so no probe falls among the timed requests; the saving is the header timeout the request no longer waits for (by default 120 s for a whole answer, 60 s for a stream).`,
    `- Run ${new Date().toISOString()}.`,
  ].join('\n');
}
