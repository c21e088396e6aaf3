// The "Member" section of `npm run bench` (issue #24 item 3; alone with BENCH_ONLY=member): what an
// organization's member adds to a chat request against a plain account, on the same gateway workerd,
// upstream and pass-through Worker. A member's hold goes Worker → member's Durable Object → the
// organization's (D29) and its settlement to the organization's; speculative dispatch (D21) should
// hide the hold once the isolate's evidence is fresh, so the member's added latency should be the
// plain account's. Measured: c=1 non-streamed latency p50/p99 and stream time to first byte, the
// plain account and the member taking turns request by request (swapping places every turn) so that
// whatever else the machine does falls on both alike, the pass-through's half before and half after
// them; then workerd CPU per c=1 request, in alternating blocks per target; then req/s and workerd
// CPU per request at c=BENCH_CONCURRENCY; then the money: the organization's balance drop equals
// the sum of the member's X-Service-Cost headers, the member's own balance is untouched, the plain
// account's drop equals its own sum. Target: member added p50 within max(10 % of the plain
// account's added p50, 0.2 ms) of it.
// Knobs: BENCH_MEMBER_N (1000 c=1 requests per target), BENCH_MEMBER_STREAM_N (100),
// BENCH_MEMBER_WARMUP (100), BENCH_MEMBER_CPU_N (300 c=1 requests per target for the CPU row),
// BENCH_MEMBER_RPS_SECONDS (4 per target, 0 skips), BENCH_MEMBER_FIRST_BYTE_MS (20; 0 leaves the second configuration out), BENCH_MEMBER_SLOW_N (300),
// BENCH_MEMBER_SLOW_STREAM_N (50), BENCH_MEMBER_STRICT_N (500; 0 leaves the SPECULATIVE_DISPATCH=off
// configuration out), BENCH_CONCURRENCY (32).
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_TOKEN, CHAT_BODY, CONCURRENCY, applyMigrations, cpuSeconds, gatewayWorkerOptions, log, num, passthroughWorkerOptions, percentile, sorted, startMiniflare, startUpstream,
} from './lib.mjs';
import { adminGet, load, micros, snapshot } from './hot.mjs';

const N = num('BENCH_MEMBER_N', 1000);
const STREAM_N = num('BENCH_MEMBER_STREAM_N', 100);
const WARMUP = num('BENCH_MEMBER_WARMUP', 100);
const CPU_N = num('BENCH_MEMBER_CPU_N', 300);
const CPU_ROUNDS = 10;
const RPS_SECONDS = num('BENCH_MEMBER_RPS_SECONDS', 4);
/** The second configuration: an upstream whose first byte takes this long (0 leaves it out), c=1 only. */
const SLOW_FIRST_BYTE_MS = num('BENCH_MEMBER_FIRST_BYTE_MS', 20);
const SLOW_N = num('BENCH_MEMBER_SLOW_N', 300);
const SLOW_STREAM_N = num('BENCH_MEMBER_SLOW_STREAM_N', 50);
/** The third configuration: the chat section's upstream with SPECULATIVE_DISPATCH=off, c=1 requests per target (0 leaves it out). */
const STRICT_N = num('BENCH_MEMBER_STRICT_N', 500);
/** Issue #24: the member's added p50 is the plain account's, within 10 % of it or 0.2 ms, whichever is larger. */
const SHARE = 0.1;
const FLOOR_MS = 0.2;

const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : 'n/a');
const signed = (x) => (Number.isFinite(x) ? `${x >= 0 ? '+' : ''}${x.toFixed(2)}` : 'n/a');
const yes = (ok) => (ok ? 'yes' : '**no**');
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
const STREAM_BODY = { ...CHAT_BODY, stream: true };
const UPSTREAM_STREAM_BODY = { ...CHAT_BODY, stream: true, stream_options: { include_usage: true } };

/** A JSON POST through the bench's keep-alive client; throws unless the status is `expect`. */
async function post(client, url, body, headers, expect) {
  const res = await client.request(url, body, headers);
  if (!expect.includes(res.status)) throw new Error(`POST ${new URL(url).pathname}: ${res.status} ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body);
}

async function register(client, base, ip) {
  const { api_key: apiKey, account_id: accountId } = await post(client, `${base}/agent/register`, { type: 'anonymous' }, { 'CF-Connecting-IP': ip }, [200, 201]);
  return { apiKey, accountId };
}

/** The plain account and the member (its organization credited, an auto-approved invite, joined). */
export async function setup(client, base) {
  const plain = await register(client, base, '198.18.240.1');
  await post(client, `${base}/admin/accounts/${plain.accountId}/credits`, { amount_usd: '100000', reason: 'bench member: plain' }, admin, [200, 201]);
  const member = await register(client, base, '198.18.240.2');
  const { organization_id: organizationId } = await post(client, `${base}/admin/organizations`, { name: 'bench fleet' }, admin, [201]);
  await post(client, `${base}/admin/accounts/${organizationId}/credits`, { amount_usd: '100000', reason: 'bench member: organization' }, admin, [200, 201]);
  const { invite_code: inviteCode } = await post(client, `${base}/admin/organizations/${organizationId}/invites`, { member_cap_usd: '100000', auto_approve: true }, admin, [201]);
  const joined = await post(client, `${base}/agent/org/join`, { invite_code: inviteCode }, { Authorization: `Bearer ${member.apiKey}` }, [200]);
  if (joined.status !== 'active') throw new Error(`join: status ${joined.status}, not active`);
  return { plain, member, organization: { accountId: organizationId } };
}

/** `n` sequential requests; their total times, first-byte times and the sum of X-Service-Cost (µ$). */
async function sequential(client, target, body, n) {
  const total = [];
  const ttfb = [];
  let costMicros = 0;
  for (let i = 0; i < n; i++) {
    const res = await client.request(target.url, body, target.headers);
    if (res.status !== 200 || (body.stream && !res.body.includes('data: [DONE]'))) throw new Error(`${target.name}: ${res.status} ${res.body.slice(0, 300)}`);
    if (target.billed) {
      // A stream's charge is in its final frame (`x_service.cost_usd`), a non-streamed one's in X-Service-Cost.
      const cost = body.stream ? /"x_service":\{[^}]*"cost_usd":"([\d.]+)"/.exec(res.body)?.[1] : res.headers['x-service-cost'];
      if (cost === undefined) throw new Error(`${target.name}${body.stream ? ' (stream)' : ''}: no cost in the answer`);
      costMicros += micros(cost);
    }
    total.push(res.totalMs);
    ttfb.push(res.ttfbMs);
  }
  return { total, ttfb, costMicros };
}

export async function measureMember({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  const fast = await measureConfiguration({ client, bundleDir, config, upstreamUrl, stateRoot, label: 'member', n: N, streamN: STREAM_N, rpsSeconds: RPS_SECONDS, cpuN: CPU_N });
  // The member's extra hop itself: the same, with the hold always before the upstream (D21 off).
  let strict = null;
  if (STRICT_N > 0) {
    log('member: again with SPECULATIVE_DISPATCH=off (c=1 only): the hold before the upstream, so the extra hop shows whole');
    strict = await measureConfiguration({ client, bundleDir, config, upstreamUrl, stateRoot, label: 'member-strict', n: STRICT_N, streamN: Math.ceil(STRICT_N / 10), rpsSeconds: 0, bindings: { SPECULATIVE_DISPATCH: 'off' } });
  }
  let slow = null;
  if (SLOW_FIRST_BYTE_MS > 0) {
    log(`member: again with an upstream whose first byte takes ${SLOW_FIRST_BYTE_MS} ms (c=1 only)`);
    const upstream = await startUpstream({ FIRST_BYTE_MS: String(SLOW_FIRST_BYTE_MS) });
    try {
      slow = await measureConfiguration({ client, bundleDir, config, upstreamUrl: upstream.url, stateRoot, label: 'member-slow', n: SLOW_N, streamN: SLOW_STREAM_N, rpsSeconds: 0 });
    } finally {
      await upstream.stop();
    }
  }
  return report(fast, slow, strict);
}

/** One gateway and pass-through on `upstreamUrl`: the plain account and the member, c=1 in turns, CPU per c=1 request (unless `cpuN` is 0), c=32 (unless `rpsSeconds` is 0), then the money. */
async function measureConfiguration({ client, bundleDir, config, upstreamUrl, stateRoot, label, n, streamN, rpsSeconds, cpuN = 0, bindings = {} }) {
  // D21's decision per request, from the gateway's log line (docs/operators/observability.md); other lines are shown.
  const decisions = new Map();
  const handleStructuredLogs = ({ message }) => {
    if (!message.startsWith('{"event":')) return void process.stderr.write(`${message}\n`);
    const line = JSON.parse(message);
    if (line.event !== 'request' || !line.decision_cache || !line.account_id) return;
    const d = decisions.get(line.account_id) ?? { hit: 0, miss: 0 };
    d[line.decision_cache]++;
    decisions.set(line.account_id, d);
  };
  const passthrough = await startMiniflare(`${label}-passthrough`, passthroughWorkerOptions(config, upstreamUrl), path.join(stateRoot, `${label}-passthrough`));
  const gateway = await startMiniflare(`${label}-gateway`, withBindings(gatewayWorkerOptions(bundleDir, config, upstreamUrl), bindings), path.join(stateRoot, `${label}-gateway`), { handleStructuredLogs });
  try {
    await applyMigrations(gateway.mf, config);
    const base = gateway.url;
    const { plain, member, organization } = await setup(client, base);
    log(`${label}: plain account ${plain.accountId}; member ${member.accountId} of organization ${organization.accountId}`);
    const chat = `${base}/v1/chat/completions`;
    const targets = {
      passthrough: { name: 'pass-through Worker', url: `${passthrough.url}/v1/chat/completions`, headers: {}, body: CHAT_BODY, streamBody: UPSTREAM_STREAM_BODY },
      plain: { name: 'gateway, plain account', url: chat, headers: { Authorization: `Bearer ${plain.apiKey}` }, body: CHAT_BODY, streamBody: STREAM_BODY, billed: true, costMicros: 0 },
      member: { name: 'gateway, organization member', url: chat, headers: { Authorization: `Bearer ${member.apiKey}` }, body: CHAT_BODY, streamBody: STREAM_BODY, billed: true, costMicros: 0 },
    };
    const run = async (key, body, n) => {
      const r = await sequential(client, targets[key], body, n);
      if (targets[key].billed) targets[key].costMicros += r.costMicros;
      return r;
    };
    const pidsOf = (key) => (key === 'passthrough' ? passthrough.pids : gateway.pids);
    // Balances before the first billed request (nothing is open yet).
    const [orgBefore] = await snapshot(base, [organization]);
    const [memberBefore] = await snapshot(base, [member]);
    const [plainBefore] = await snapshot(base, [plain]);

    log(`${label}: warm-up ${WARMUP} requests and ${Math.ceil(WARMUP / 10)} streams per target`);
    for (const key of Object.keys(targets)) {
      await run(key, targets[key].body, WARMUP);
      await run(key, targets[key].streamBody, Math.ceil(WARMUP / 10));
    }
    decisions.clear();
    const orgCallCounts = async () => (await adminGet(base, `/admin/accounts/${organization.accountId}`)).durable_object_calls.by_method;
    const orgCallsBefore = await orgCallCounts();

    log(`${label}: c=1 ${n} requests and ${streamN} streams per target, one request of each target in turn`);
    const results = Object.fromEntries(Object.keys(targets).map((k) => [k, { total: [], ttfb: [] }]));
    const cores = os.cpus().length;
    const ourPids = [process.pid, ...passthrough.pids, ...gateway.pids];
    const cpuStart = cpuSeconds(ourPids);
    const wallStart = Date.now();
    // The plain account and the member take turns request by request, swapping places every turn
    // (ABBA: each follows itself as often as the other), so that a slow moment of the machine falls
    // on both; in blocks of a hundred it fell on one, and the difference of their p50s moved by
    // ±0.15 ms from run to run (in turns, by ±0.03 ms). The pass-through, another process, runs half
    // before and half after: blocks of it between the turns made every gateway request slower here.
    const inTurn = async (count, bodyOf, into) => {
      const passthroughs = async (k) => results.passthrough[into].push(...(await run('passthrough', bodyOf(targets.passthrough), k))[into]);
      await passthroughs(Math.ceil(count / 2));
      for (let i = 0; i < count; i++) {
        for (const key of i % 2 === 0 ? ['plain', 'member'] : ['member', 'plain']) results[key][into].push(...(await run(key, bodyOf(targets[key]), 1))[into]);
      }
      await passthroughs(Math.floor(count / 2));
    };
    await inTurn(n, (t) => t.body, 'total');
    await inTurn(streamN, (t) => t.streamBody, 'ttfb');
    const orgCallsAfter = await orgCallCounts();
    const perRequest = (before, after, requests) => {
      const of = (method) => ((after[method] ?? 0) - (before[method] ?? 0)) / requests;
      return { holds: of('holdsForMember'), refills: of('poolForMember'), returns: of('returnPoolForMember') };
    };
    const orgCalls = { c1: perRequest(orgCallsBefore, orgCallsAfter, results.member.total.length + results.member.ttfb.length) };
    const c1Decisions = { plain: { ...(decisions.get(plain.accountId) ?? { hit: 0, miss: 0 }) }, member: { ...(decisions.get(member.accountId) ?? { hit: 0, miss: 0 }) } };
    const cpuEnd = cpuSeconds(ourPids);
    const foreign = Math.max(0, (cpuEnd.machine - cpuStart.machine) - (cpuEnd.ours - cpuStart.ours)) / (((Date.now() - wallStart) / 1000) * cores);
    for (const r of Object.values(results)) {
      const total = sorted(r.total);
      const ttfb = sorted(r.ttfb);
      Object.assign(r, { p50: percentile(total, 50), p99: percentile(total, 99), ttfbP50: percentile(ttfb, 50), ttfbP99: percentile(ttfb, 99) });
    }

    // CPU per c=1 request: blocks per target (a process's CPU cannot be split between requests in
    // turn), in CPU_ROUNDS alternating rounds so that a slow spell does not fall on one target's whole.
    const cpuPerC1Request = {};
    if (cpuN > 0) {
      log(`${label}: workerd CPU at c=1, ${cpuN} requests per target in ${CPU_ROUNDS} alternating rounds`);
      const cpu = {};
      const perBlock = Math.ceil(cpuN / CPU_ROUNDS);
      for (let round = 0; round < CPU_ROUNDS; round++) {
        for (const key of round % 2 === 0 ? ['passthrough', 'plain', 'member'] : ['passthrough', 'member', 'plain']) {
          const before = cpuSeconds(pidsOf(key)).ours;
          await run(key, targets[key].body, perBlock);
          cpu[key] = (cpu[key] ?? 0) + cpuSeconds(pidsOf(key)).ours - before;
        }
      }
      for (const key of Object.keys(cpu)) cpuPerC1Request[key] = (cpu[key] / (perBlock * CPU_ROUNDS)) * 1e6;
    }

    if (rpsSeconds > 0) {
      log(`${label}: c=${CONCURRENCY}, ${rpsSeconds} s per target in 2 alternating rounds`);
      for (const key of Object.keys(targets)) Object.assign(results[key], { requests: 0, wall: 0, cpu: 0, failed: 0 });
      const loadedBefore = await orgCallCounts();
      for (let round = 0; round < 2; round++) {
        const order = round % 2 === 0 ? ['passthrough', 'plain', 'member'] : ['passthrough', 'member', 'plain'];
        for (const key of order) {
          const t = targets[key];
          const pids = key === 'passthrough' ? passthrough.pids : gateway.pids;
          const before = cpuSeconds(pids).ours;
          const r = await load(() => t.url, () => t.headers, CONCURRENCY, rpsSeconds / 2);
          results[key].cpu += cpuSeconds(pids).ours - before;
          results[key].requests += r.latencies.length;
          results[key].wall += r.wall;
          results[key].failed += r.latencies.length - (r.statuses[200] ?? 0);
          if (t.billed) t.costMicros += r.costMicros;
          if (t.billed && r.uncosted) throw new Error(`${t.name}: ${r.uncosted} answers without X-Service-Cost`);
        }
      }
      for (const r of Object.values(results)) Object.assign(r, { rps: r.requests / r.wall, cpuUs: (r.cpu / r.requests) * 1e6 });
      orgCalls.loaded = perRequest(loadedBefore, await orgCallCounts(), results.member.requests);
    }

    // The money: every hold closed, then each balance's drop against the costs its requests were told.
    const [orgAfter] = await snapshot(base, [organization]);
    const [memberAfter] = await snapshot(base, [member]);
    const [plainAfter] = await snapshot(base, [plain]);
    const money = {
      orgDrop: orgBefore.balanceMicros - orgAfter.balanceMicros,
      memberCost: targets.member.costMicros,
      memberDrop: memberBefore.balanceMicros - memberAfter.balanceMicros,
      plainDrop: plainBefore.balanceMicros - plainAfter.balanceMicros,
      plainCost: targets.plain.costMicros,
      openHolds: orgAfter.openHolds + memberAfter.openHolds + plainAfter.openHolds,
    };
    return { results, decisions: c1Decisions, orgCalls, cpuPerC1Request, money, foreign };
  } finally {
    await gateway.stop();
    await passthrough.stop();
  }
}

const withBindings = (options, bindings) => ({ ...options, bindings: { ...options.bindings, ...bindings } });

/** Added over the pass-through, per target. */
const addedOf = (r) => {
  const p = r.passthrough;
  const added = (x) => ({ p50: x.p50 - p.p50, p99: x.p99 - p.p99, ttfb: x.ttfbP50 - p.ttfbP50 });
  return { plain: added(r.plain), member: added(r.member) };
};

function rows(c, upstream) {
  const r = c.results;
  const a = addedOf(r);
  const hitShare = (d) => (d.hit + d.miss ? `${((d.hit / (d.hit + d.miss)) * 100).toFixed(0)} %` : 'n/a');
  const row = (key, name) => {
    const x = r[key];
    const add = a[key];
    return `| ${upstream} | ${name} | ${f2(x.p50)} / ${f2(x.p99)} | ${add ? `${signed(add.p50)} / ${signed(add.p99)}` : '—'} | ${f2(x.ttfbP50)} / ${f2(x.ttfbP99)} | ${add ? signed(add.ttfb) : '—'} | ` +
      `${x.rps === undefined ? '—' : `${Math.round(x.rps)}${x.failed ? ` (${x.failed} not 200)` : ''}`} | ${x.cpuUs === undefined ? '—' : Math.round(x.cpuUs)} | ${add ? hitShare(c.decisions[key]) : '—'} |`;
  };
  return [row('passthrough', 'pass-through Worker'), row('plain', 'gateway, plain account'), row('member', 'gateway, organization member')];
}

/** How often the member's c=1 requests reached the organization's object: asking for their own hold, refilling the hold pool, giving it back. */
function orgCallsRow(c, name) {
  const row = (load, { holds, refills, returns }) =>
    `| organization calls per member request at ${load}, ${name}: a hold asked on the way (\`holdsForMember\`) / pool refills / pool returns (measured) | ${holds.toFixed(3)} / ${refills.toFixed(3)} / ${returns.toFixed(3)} | — | — |`;
  return [row('c=1', c.orgCalls.c1), ...(c.orgCalls.loaded ? [row(`c=${CONCURRENCY}`, c.orgCalls.loaded)] : [])].join('\n');
}

function moneyRow(c, name) {
  const m = c.money;
  const ok = m.orgDrop === m.memberCost && m.memberDrop === 0 && m.plainDrop === m.plainCost && m.openHolds === 0;
  return `| money, ${name}: organization's balance drop = sum of the member's costs; member's own balance untouched; plain account's drop = its sum; no hold open | ` +
    `org drop ${m.orgDrop} µ$, member costs ${m.memberCost} µ$; member drop ${m.memberDrop} µ$; plain drop ${m.plainDrop} µ$, plain costs ${m.plainCost} µ$; ${m.openHolds} open | equal, 0, equal, 0 | ${yes(ok)} |`;
}

function report(fast, slow, strict) {
  const { plain, member } = addedOf(fast.results);
  const limit = Math.max(SHARE * plain.p50, FLOOR_MS);
  const which = SHARE * plain.p50 > FLOOR_MS ? `10 % of ${f2(plain.p50)} ms` : `${FLOOR_MS} ms, larger than 10 % of ${f2(plain.p50)} ms`;
  const slowAdded = slow ? addedOf(slow.results) : null;
  const strictAdded = strict ? addedOf(strict.results) : null;
  const strictName = 'instant, `SPECULATIVE_DISPATCH=off`';
  const slowName = `upstream first byte ${SLOW_FIRST_BYTE_MS} ms`;
  return [
    '### Member: an organization member against a plain account',
    '',
    `| upstream | target | c=1 latency p50 / p99 (ms) | added over pass-through p50 / p99 (ms) | stream TTFB p50 / p99 (ms) | TTFB added p50 (ms) | req/s at c=${CONCURRENCY} | workerd CPU per request at c=${CONCURRENCY} (µs) | c=1 requests sent early (D21 \`decision_cache\` hit) |`,
    '|:--|:--|--:|--:|--:|--:|--:|--:|--:|',
    ...rows(fast, "the chat section's (instant)"),
    ...(strict ? rows(strict, strictName) : []),
    ...(slow ? rows(slow, slowName) : []),
    '',
    '#### Member targets',
    '',
    '| target | measured | limit | met |',
    '|:--|--:|--:|:--|',
    `| added p50, member − plain account | ${signed(member.p50 - plain.p50)} ms | ≤ ${f2(limit)} ms (${which}) | ${yes(member.p50 - plain.p50 <= limit)} |`,
    `| added p99, member − plain account (measured) | ${signed(member.p99 - plain.p99)} ms | — | — |`,
    `| stream TTFB p50, member − plain account (measured) | ${signed(member.ttfb - plain.ttfb)} ms | — | — |`,
    ...(strictAdded
      ? [`| ${strictName}: added p50 / p99, member − plain account (the extra hop whole; measured) | ${signed(strictAdded.member.p50 - strictAdded.plain.p50)} / ${signed(strictAdded.member.p99 - strictAdded.plain.p99)} ms | — | — |`]
      : []),
    ...(slowAdded
      ? [`| ${slowName}: added p50 / p99, member − plain account; stream TTFB p50 (measured) | ${signed(slowAdded.member.p50 - slowAdded.plain.p50)} / ${signed(slowAdded.member.p99 - slowAdded.plain.p99)} ms; ${signed(slowAdded.member.ttfb - slowAdded.plain.ttfb)} ms | — | — |`]
      : []),
    ...(CPU_N > 0
      ? [`| workerd CPU per c=1 request (${CPU_N} non-streamed requests per target, in ${CPU_ROUNDS} alternating blocks), instant upstream: plain account / member (measured) | ${fast.cpuPerC1Request.plain.toFixed(0)} / ${fast.cpuPerC1Request.member.toFixed(0)} µs | — | — |`]
      : []),
    orgCallsRow(fast, 'instant upstream'),
    ...(strict ? [orgCallsRow(strict, strictName)] : []),
    moneyRow(fast, 'instant upstream'),
    ...(strict ? [moneyRow(strict, strictName)] : []),
    ...(slow ? [moneyRow(slow, slowName)] : []),
    '',
    `- Each configuration: one gateway workerd (a fresh Miniflare, state on tmpfs) and one pass-through Worker on its upstream. The plain account registered and credited $100000; the member registered, an organization created (\`POST /admin/organizations\`) and credited $100000, an invite with \`auto_approve\` and a $100000 monthly cap, joined with \`POST /agent/org/join\`.`,
    `- c=1: one keep-alive socket, ${WARMUP} warm-up requests per target, then ${N} non-streamed requests and ${STREAM_N} streams per target (${STRICT_N} and ${Math.ceil(STRICT_N / 10)} with D21 off, ${SLOW_N} and ${SLOW_STREAM_N} with the slow upstream): the plain account and the member one request each in turn, their order swapped every turn (so that the machine's slow moments fall on both alike), the pass-through's half before and half after them; exact percentiles. ` +
      `The last column: the share of the c=1 requests whose upstream call started before the hold was confirmed (D21), from the gateway's log lines.`,
    `- c=${CONCURRENCY} (instant upstream only): ${CONCURRENCY} closed loops on keep-alive sockets, ${RPS_SECONDS} s per target in 2 alternating rounds; workerd CPU is the gateway's (or the pass-through's) process user + system time over its rounds, divided by its requests.`,
    `- Money: every cost of the configuration summed per account (X-Service-Cost, a stream's final \`x_service.cost_usd\`; warm-up and c=${CONCURRENCY} included), against the balance drops from \`GET /admin/accounts/{id}\` once no hold is open.`,
    `- Other processes used ${(fast.foreign * 100).toFixed(0)} % of the machine's CPU during the instant upstream's c=1 rounds${fast.foreign > 0.1 ? ' (a shared, busy machine: expect noise)' : ''}.`,
  ].join('\n');
}
