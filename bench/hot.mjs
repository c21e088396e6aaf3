// The "Hot account" section of `npm run bench` (issue #25 item 2; alone with BENCH_ONLY=hot): c=64
// non-streamed chat requests on ONE account against c=64 spread over 64 accounts (one each), on the
// same gateway workerd and upstream, the two taking turns. For each: requests per second, p50 and
// p99, and the calls that reached the accounts' Durable Objects per request (the counts each
// object keeps in memory, read from `GET /admin/accounts/{id}` before and after: its
// `durable_object_calls`), split by the operations they carried. Then the money: the sum of every
// answer's X-Service-Cost equals each account's balance drop read from the admin API, no hold is
// left open, and the ledger's rows of the run, replayed in order, never hold more than the balance.
// Targets: one account serves ≥ 90 % of the spread req/s, with ≤ 0.25 Durable Object calls per request.
// A third configuration sends the one account's load through BENCH_HOT_ISOLATES (4) copies of the
// gateway Worker in the same workerd, each an isolate with its own group commit, sharing the Durable
// Objects: what many isolates or locations calling one account do to the calls per request.
// Knobs: BENCH_HOT_CONCURRENCY (64), BENCH_HOT_SECONDS (12 per configuration), BENCH_HOT_ROUNDS (2),
// BENCH_HOT_WARMUP_SECONDS (2), BENCH_HOT_ISOLATES (4; 1 leaves the third configuration out).
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_TOKEN, CHAT_BODY, applyMigrations, cpuSeconds, gatewayWorkerOptions, log, num, percentile, sleep, sorted, startMiniflare,
} from './lib.mjs';

const HOT_C = num('BENCH_HOT_CONCURRENCY', 64);
const HOT_SECONDS = num('BENCH_HOT_SECONDS', 12);
const HOT_ROUNDS = num('BENCH_HOT_ROUNDS', 2);
const HOT_WARMUP_SECONDS = num('BENCH_HOT_WARMUP_SECONDS', 2);
/** Isolates of the gateway in the third configuration (one account from several isolates). */
const HOT_ISOLATES = num('BENCH_HOT_ISOLATES', 4);
/** Issue #25: one account serves at least this share of the spread figure ... */
const SHARE_TARGET = 0.9;
/** ... with at most this many calls to its Durable Object per request. */
const CALLS_TARGET = 0.25;
/** Settlements may still be on their way (a lazy one, a journaled one) when the load stops. */
const SETTLE_WAIT_MS = 10_000;

const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : 'n/a');
const yes = (ok) => (ok ? 'yes' : '**no**');
/** A USD string of the wire (6 fraction digits at most) in integer micro-dollars, exactly. */
export const micros = (usd) => {
  const [, sign, whole, frac = ''] = /^(-?)(\d+)(?:\.(\d{1,6}))?$/.exec(usd) ?? [];
  if (whole === undefined) throw new Error(`not a USD amount: ${usd}`);
  return (sign ? -1 : 1) * (Number(whole) * 1e6 + Number(frac.padEnd(6, '0')));
};
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

export async function adminGet(base, pathname) {
  const res = await fetch(`${base}${pathname}`, { headers: admin });
  if (res.status !== 200) throw new Error(`GET ${pathname}: ${res.status} ${(await res.text()).slice(0, 200)}`);
  return res.json();
}

/** Registers an account from its own address (the per-IP registration limit), credits it $100000. */
async function account(base, i) {
  const res = await fetch(`${base}/agent/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': `198.18.${i >> 8}.${i & 255}` },
    body: '{"type":"anonymous"}',
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${(await res.text()).slice(0, 200)}`);
  const { api_key: apiKey, account_id: accountId } = await res.json();
  const credited = await fetch(`${base}/admin/accounts/${accountId}/credits`, {
    method: 'POST',
    headers: { ...admin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ amount_usd: '100000', reason: 'bench hot account' }),
  });
  if (credited.status !== 200) throw new Error(`credit: ${credited.status}`);
  return { apiKey, accountId };
}

/**
 * Closed-loop load: `connections` loops, each on its own keep-alive socket with its own headers
 * (`headersOf(i)`), for `seconds`. Every latency is kept (exact percentiles), and every answer's
 * X-Service-Cost summed in micro-dollars.
 */
export async function load(urlOf, headersOf, connections, seconds) {
  const payload = Buffer.from(JSON.stringify(CHAT_BODY));
  const latencies = [];
  const statuses = {};
  let costMicros = 0;
  let uncosted = 0;
  const deadline = Date.now() + seconds * 1000;
  const started = process.hrtime.bigint();
  const loop = async (i) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers = { 'Content-Type': 'application/json', 'Content-Length': payload.length, ...headersOf(i) };
    while (Date.now() < deadline) {
      const t0 = process.hrtime.bigint();
      // A failed connection counts as a status of its own ("error"), as autocannon counts errors.
      const { status, cost } = await new Promise((resolve) => {
        const failed = () => resolve({ status: 'error' });
        const req = http.request(urlOf(i), { method: 'POST', agent, headers }, (res) => {
          res.on('data', () => {});
          res.on('end', () => resolve({ status: res.statusCode, cost: res.headers['x-service-cost'] }));
          res.on('error', failed);
        });
        req.on('socket', (socket) => socket.setNoDelay(true));
        req.on('error', failed);
        req.end(payload);
      });
      latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (status === 200 && cost !== undefined) costMicros += micros(cost);
      else if (status === 200) uncosted++;
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: connections }, (_, i) => loop(i)));
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  return { latencies, statuses, costMicros, uncosted, wall };
}

/** Each account's balance, open holds, newest ledger row and call counts, once nothing is open (or the wait is over). */
export async function snapshot(base, accounts) {
  const deadline = Date.now() + SETTLE_WAIT_MS;
  for (;;) {
    const views = await Promise.all(accounts.map((a) => adminGet(base, `/admin/accounts/${a.accountId}`)));
    if (views.every((v) => v.holds.length === 0) || Date.now() > deadline) {
      return views.map((v) => ({
        balanceMicros: micros(v.balance_usd),
        openHolds: v.holds.length,
        lastSeq: v.ledger[0]?.seq ?? 0,
        calls: v.durable_object_calls,
      }));
    }
    await sleep(100);
  }
}

/** The account's ledger rows after `afterSeq`, oldest first. */
async function ledgerSince(base, accountId, afterSeq) {
  const rows = [];
  let cursor;
  for (;;) {
    const page = await adminGet(base, `/admin/accounts/${accountId}/ledger?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
    const fresh = page.data.filter((row) => row.seq > afterSeq);
    rows.push(...fresh);
    if (fresh.length < page.data.length || page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  return rows.reverse();
}

/**
 * Replays the rows in order: after each, the holds still open must fit in the balance it states.
 * The worst headroom seen (balance − open holds, micro-dollars) and the most held at once.
 */
function replay(rows) {
  const open = new Map();
  let held = 0;
  let maxHeld = 0;
  let worst = Infinity;
  for (const row of rows) {
    const amount = micros(row.amount_usd);
    if (row.kind === 'hold') {
      open.set(row.hold_id, amount);
      held += amount;
    } else if (row.kind === 'release' && open.has(row.hold_id)) {
      held -= open.get(row.hold_id);
      open.delete(row.hold_id);
    }
    maxHeld = Math.max(maxHeld, held);
    worst = Math.min(worst, micros(row.balance_after_usd) - held);
  }
  return { worst, maxHeld, holds: rows.filter((r) => r.kind === 'hold').length };
}

/**
 * Adds to `into` the call counts between two snapshots, over every account. An object that
 * restarted in between (an idle one is evicted after some seconds) counts from 0: its new counts
 * are all of the round's, and the round is noted.
 */
function addCalls(into, before, after) {
  before.forEach((b, i) => {
    const a = after[i];
    const same = a.calls.since === b.calls.since;
    if (!same) into.restarted++;
    into.calls += a.calls.calls - (same ? b.calls.calls : 0);
    for (const [op, n] of Object.entries(a.calls.ops)) into.ops[op] = (into.ops[op] ?? 0) + n - (same ? (b.calls.ops[op] ?? 0) : 0);
  });
}

/**
 * Copies of the gateway Worker beside `label` in the same workerd: each its own isolate (and group
 * commit per account), with the Durable Objects, D1, R2 and the queue producer of `label`'s.
 */
function replicas(label, main, n) {
  const { queueConsumers: _, durableObjects, ...rest } = main;
  const shared = Object.fromEntries(Object.entries(durableObjects).map(([binding, { className }]) => [binding, { className, scriptName: label }]));
  return Array.from({ length: Math.max(0, n) }, (_, i) => ({ ...rest, name: `${label}-${i + 2}`, durableObjects: shared }));
}

export async function measureHot({ bundleDir, config, upstreamUrl, stateRoot }) {
  // The gateway's line per request (docs/operators/observability.md) would bury the report: only other lines are shown.
  const quiet = { handleStructuredLogs: ({ message }) => void (message.startsWith('{"event":') || process.stderr.write(`${message}\n`)) };
  const label = 'hot-gateway';
  const main = gatewayWorkerOptions(bundleDir, config, upstreamUrl);
  const instance = await startMiniflare(label, main, path.join(stateRoot, label), quiet, replicas(label, main, HOT_ISOLATES - 1));
  try {
    await applyMigrations(instance.mf, config);
    const base = instance.url;
    const chat = (url) => `${url}/v1/chat/completions`;
    const spreadAccounts = [];
    for (let i = 0; i < HOT_C; i++) spreadAccounts.push(await account(base, i + 1));
    const configs = [
      { key: 'hot', name: `one account, c=${HOT_C}`, accounts: [await account(base, 0)], urlOf: () => chat(base) },
      ...(HOT_ISOLATES > 1
        ? [{ key: 'isolates', name: `one account, c=${HOT_C} through ${HOT_ISOLATES} isolates`, accounts: [await account(base, HOT_C + 1)], urlOf: (i) => chat(instance.urls[i % instance.urls.length]) }]
        : []),
      { key: 'spread', name: `${HOT_C} accounts, c=${HOT_C} (one each)`, accounts: spreadAccounts, urlOf: () => chat(base) },
    ];
    for (const c of configs) c.headersOf = (i) => ({ Authorization: `Bearer ${c.accounts[i % c.accounts.length].apiKey}` });
    log(`hot: ${HOT_WARMUP_SECONDS} s warm-up each, then ${HOT_SECONDS} s per configuration in ${HOT_ROUNDS} alternating rounds at c=${HOT_C}`);
    for (const c of configs) await load(c.urlOf, c.headersOf, HOT_C, HOT_WARMUP_SECONDS);
    const cores = os.cpus().length;
    let ours = 0;
    let machine = 0;
    let wall = 0;
    for (const c of configs) Object.assign(c, { runs: [], cpu: 0, calls: { calls: 0, ops: {}, restarted: 0 } });
    for (let round = 0; round < HOT_ROUNDS; round++) {
      for (const c of configs) {
        // The counts are read around each round: an object left idle by the other rounds may be evicted, its counts with it.
        const before = await snapshot(base, c.accounts);
        c.before ??= before;
        const cpuBefore = cpuSeconds([process.pid, ...instance.pids]);
        const workerdBefore = cpuSeconds(instance.pids).ours;
        const started = Date.now();
        c.runs.push(await load(c.urlOf, c.headersOf, HOT_C, HOT_SECONDS / HOT_ROUNDS));
        c.cpu += cpuSeconds(instance.pids).ours - workerdBefore;
        const cpuAfter = cpuSeconds([process.pid, ...instance.pids]);
        ours += cpuAfter.ours - cpuBefore.ours;
        machine += cpuAfter.machine - cpuBefore.machine;
        wall += (Date.now() - started) / 1000;
        c.after = await snapshot(base, c.accounts);
        addCalls(c.calls, before, c.after);
      }
    }
    const foreign = Math.max(0, machine - ours) / (wall * cores);
    for (const c of configs) {
      const { calls } = c;
      const requests = c.runs.reduce((sum, r) => sum + r.latencies.length, 0);
      const latencies = sorted(c.runs.flatMap((r) => r.latencies));
      const statuses = {};
      for (const r of c.runs) for (const [s, n] of Object.entries(r.statuses)) statuses[s] = (statuses[s] ?? 0) + n;
      const replays = [];
      for (const [i, a] of c.accounts.entries()) replays.push(replay(await ledgerSince(base, a.accountId, c.before[i].lastSeq)));
      const drop = c.before.reduce((sum, b, i) => sum + b.balanceMicros - c.after[i].balanceMicros, 0);
      c.result = {
        requests,
        rps: requests / c.runs.reduce((sum, r) => sum + r.wall, 0),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        cpuUs: (c.cpu / requests) * 1e6,
        statuses,
        calls,
        costMicros: c.runs.reduce((sum, r) => sum + r.costMicros, 0),
        uncosted: c.runs.reduce((sum, r) => sum + r.uncosted, 0),
        drop,
        openHolds: c.after.reduce((sum, a) => sum + a.openHolds, 0),
        worstHeadroom: Math.min(...replays.map((r) => r.worst)),
        maxHeld: Math.max(...replays.map((r) => r.maxHeld)),
        holdRows: replays.reduce((sum, r) => sum + r.holds, 0),
      };
    }
    return report(configs, foreign);
  } finally {
    await instance.stop();
  }
}

function report(configs, foreign) {
  const of = (key) => configs.find((c) => c.key === key)?.result;
  const hot = of('hot');
  const spread = of('spread');
  const isolates = of('isolates');
  const perRequest = (r, op) => (r.calls.ops[op] ?? 0) / r.requests;
  const moneyOk = (r) => r.costMicros === r.drop && r.uncosted === 0 && r.openHolds === 0 && r.worstHeadroom >= 0;
  const failed = (r) => r.requests - (r.statuses[200] ?? 0);
  const share = hot.rps / spread.rps;
  const callsPerRequest = hot.calls.calls / hot.requests;
  const row = (c) => {
    const r = c.result;
    return `| ${c.name} | ${Math.round(r.rps)}${failed(r) ? ` (${failed(r)} not 200)` : ''} | ${f2(r.p50)} / ${f2(r.p99)} | ${Math.round(r.cpuUs)} | ${f3(r.calls.calls / r.requests)} | ` +
      `${f3(perRequest(r, 'hold'))} / ${f3(perRequest(r, 'settle'))} / ${f3(perRequest(r, 'release'))} / ${f3(perRequest(r, 'extend'))} | ${f2(Object.values(r.calls.ops).reduce((a, b) => a + b, 0) / r.calls.calls)} |`;
  };
  const money = (c) => {
    const r = c.result;
    return `| ${c.name}: money | ${r.requests} answers, X-Service-Cost sum ${r.costMicros} µ$${r.uncosted ? ` (${r.uncosted} without it)` : ''}; balance drop ${r.drop} µ$; ${r.openHolds} holds open after; ` +
      `${r.holdRows} holds replayed, at most ${r.maxHeld} µ$ held at once, least headroom ${r.worstHeadroom} µ$ | sum = drop, none open, headroom ≥ 0 | ${yes(moneyOk(r))} |`;
  };
  const restarted = configs.reduce((sum, c) => sum + c.result.calls.restarted, 0);
  return [
    `### Hot account: c=${HOT_C} on one account against c=${HOT_C} over ${HOT_C} accounts`,
    '',
    '| configuration | req/s | p50 / p99 (ms) | workerd CPU per request (µs) | Durable Object calls per request | operations per request: hold / settle / release / extend | operations per call |',
    '|:--|--:|--:|--:|--:|--:|--:|',
    ...configs.map(row),
    '',
    '#### Hot account targets',
    '',
    '| target | measured | limit | met |',
    '|:--|--:|--:|:--|',
    `| one account's req/s ÷ spread req/s | ${(share * 100).toFixed(0)} % | ≥ ${SHARE_TARGET * 100} % | ${yes(share >= SHARE_TARGET)} |`,
    `| Durable Object calls per request, one account | ${f3(callsPerRequest)} | ≤ ${CALLS_TARGET} | ${yes(callsPerRequest <= CALLS_TARGET)} |`,
    ...(isolates
      ? [`| the same through ${HOT_ISOLATES} isolates (no limit: measured): req/s ÷ spread, Durable Object calls per request | ${(isolates.rps / spread.rps * 100).toFixed(0)} %, ${f3(isolates.calls.calls / isolates.requests)} | — | — |`]
      : []),
    ...configs.map(money),
    '',
    `- One gateway workerd (a fresh Miniflare, state on tmpfs) on the chat section's upstream; ${HOT_C} + 1 accounts registered (each from its own \`CF-Connecting-IP\`) and credited $100000. ` +
      `Load: ${HOT_C} closed loops, each on its own keep-alive socket, non-streamed \`${CHAT_BODY.model}\` completions (max_tokens ${CHAT_BODY.max_tokens}); the one-account loops share one key, the spread loops use one account each. ` +
      `${HOT_WARMUP_SECONDS} s warm-up per configuration, then ${HOT_SECONDS} s each in ${HOT_ROUNDS} alternating rounds; exact percentiles over every request.`,
    `- Durable Object calls: each account's object counts in memory the calls of the request path that reach it (\`apply\` batches from the Worker's group commit and the settlement journal, and direct money calls), shown as \`durable_object_calls\` by \`GET /admin/accounts/{id}\`; read before the first round and after the last, once no hold is open, summed over the configuration's accounts and divided by its requests${restarted ? ` (**${restarted} objects restarted during the run: their counts from 0**)` : ''}. Operations per call is the mean batch.`,
    `- Money: the sum of the X-Service-Cost headers of every 200 against the balance drop from \`GET /admin/accounts/{id}\` (waiting up to ${SETTLE_WAIT_MS / 1000} s for open holds to close); the ledger rows written during the run (\`GET /admin/accounts/{id}/ledger\`), replayed in order: after each row, the balance it states minus the holds then open (least headroom ≥ 0: holds never exceeded the balance).`,
    `- Local workerd runs the Worker in one isolate, so every request of an account meets the same group commit; a deployed account is called from many isolates and locations, each batching only its own requests (docs/contributors/architecture.md). ` +
      (isolates ? `The "through ${HOT_ISOLATES} isolates" row sends the account's load round-robin through ${HOT_ISOLATES} copies of the gateway Worker in the same workerd (each its own isolate and group commit, the Durable Objects shared): each isolate's calls to the account come one at a time, so calls per second grow with the isolates, up to one per round trip each. ` : '') +
      `Other processes used ${(foreign * 100).toFixed(0)} % of the machine's CPU during the rounds${foreign > 0.1 ? ' (a busy machine: expect noise)' : ''}.`,
  ].join('\n');
}
