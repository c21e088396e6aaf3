// Where a member's chat request spends what a plain account's does not (issue #24's member row), not
// part of `npm run bench`: `node bench/profile-member.mjs`. One gateway (unminified, inspector open),
// the plain account and the member of bench/member.mjs, 300 warm-up requests each; then
//   default          PROFILE_N (2000) c=1 requests per target, V8-profiled one target at a time in
//                    PROFILE_ROUNDS (4) alternating rounds: sampled CPU of the isolate (Worker and
//                    Durable Objects) per request, and the functions whose self and inclusive time
//                    per request differ most (bench/.out/member-profile-<target>.cpuprofile, round 1);
//   PROFILE_LATENCY=1  latency only, minified and without the inspector: PROFILE_N requests per
//                    target, the two taking turns request by request (ABBA), p50 of each and their
//                    difference; PROFILE_AA=1 puts a second plain account in the member's place, which
//                    shows the method's own noise.
import path from 'node:path';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { unstable_readConfig } from 'wrangler';
import { BENCH_DIR, CHAT_BODY, ROOT, applyMigrations, buildGateway, cleanups, gatewayWorkerOptions, log, makeClient, num, openInspector, runMain, startMiniflare, startUpstream } from './lib.mjs';
import { setup } from './member.mjs';

const N = num('PROFILE_N', 2000);
const ROUNDS = num('PROFILE_ROUNDS', 4);
const TOP = num('PROFILE_TOP', 25);
const LATENCY = Boolean(process.env.PROFILE_LATENCY);

/** Self and inclusive µs per function (name + file:line), idle excluded. */
function aggregate(profile, into) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n) => `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url || '')}:${n.callFrame.lineNumber + 1}`;
  profile.samples.forEach((sid, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const leaf = byId.get(sid);
    if (leaf.callFrame.functionName === '(idle)') return;
    into.total += dt;
    const self = name(leaf);
    into.self.set(self, (into.self.get(self) ?? 0) + dt);
    const seen = new Set();
    for (let cur = leaf; cur; cur = byId.get(parent.get(cur.id))) {
      const k = name(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      into.inclusive.set(k, (into.inclusive.get(k) ?? 0) + dt);
    }
  });
}

async function main() {
  const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
  const bundle = buildGateway(path.join(BENCH_DIR, '.out', 'gateway'), undefined, LATENCY ? [] : ['--no-minify']);
  const upstream = await startUpstream();
  const state = mkdtempSync('/dev/shm/gateway-profile-member-');
  cleanups.push(() => rmSync(state, { recursive: true, force: true }));
  const client = makeClient();
  cleanups.push(() => client.close());
  const gw = await startMiniflare('member-profile', gatewayWorkerOptions(bundle, config, upstream.url), state, { ...(LATENCY ? {} : { inspectorPort: 0 }), handleStructuredLogs: () => {} });
  await applyMigrations(gw.mf, config);
  const { plain, member } = await setup(client, gw.url);
  const url = `${gw.url}/v1/chat/completions`;
  const targets = { plain: { Authorization: `Bearer ${plain.apiKey}` }, member: { Authorization: `Bearer ${member.apiKey}` } };
  const run = async (headers, n) => {
    for (let i = 0; i < n; i++) {
      const res = await client.request(url, CHAT_BODY, headers);
      if (res.status !== 200) throw new Error(`${res.status} ${res.body}`);
    }
  };
  for (const headers of Object.values(targets)) await run(headers, 300);
  if (LATENCY) {
    if (process.env.PROFILE_AA) targets.member = { Authorization: `Bearer ${(await setup(client, gw.url)).plain.apiKey}` };
    const times = { plain: [], member: [] };
    for (let i = 0; i < N; i++) {
      for (const key of i % 2 ? ['member', 'plain'] : ['plain', 'member']) times[key].push((await client.request(url, CHAT_BODY, targets[key])).totalMs);
    }
    const p50 = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const second = process.env.PROFILE_AA ? 'a second plain account' : 'member';
    console.log(`c=1 p50 in turns: plain ${p50(times.plain).toFixed(3)} ms, ${second} ${p50(times.member).toFixed(3)} ms, difference ${(p50(times.member) - p50(times.plain)).toFixed(3)} ms`);
    await gw.stop();
    await upstream.stop();
    return;
  }
  const ins = await openInspector(gw.mf, 'member-profile');
  const perRound = Math.ceil(N / ROUNDS);
  const sums = Object.fromEntries(Object.keys(targets).map((k) => [k, { total: 0, self: new Map(), inclusive: new Map(), n: 0 }]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const key of round % 2 ? ['member', 'plain'] : ['plain', 'member']) {
      await ins.send('Profiler.start');
      await run(targets[key], perRound);
      const { result } = await ins.send('Profiler.stop');
      if (round === 0) writeFileSync(path.join(BENCH_DIR, '.out', `member-profile-${key}.cpuprofile`), JSON.stringify(result.profile));
      aggregate(result.profile, sums[key]);
      sums[key].n += perRound;
    }
  }
  ins.close();
  const per = (s, v) => v / s.n;
  for (const key of Object.keys(sums)) log(`${key}: ${per(sums[key], sums[key].total).toFixed(0)} µs of sampled isolate CPU per request`);
  for (const kind of ['self', 'inclusive']) {
    const names = new Set([...sums.plain[kind].keys(), ...sums.member[kind].keys()]);
    const rows = [...names].map((k) => {
      const p = per(sums.plain, sums.plain[kind].get(k) ?? 0);
      const m = per(sums.member, sums.member[kind].get(k) ?? 0);
      return { k, p, m, d: m - p };
    });
    console.log(`\n${kind} µs per request: plain / member / difference (largest differences)`);
    for (const r of rows.sort((a, b) => Math.abs(b.d) - Math.abs(a.d)).slice(0, TOP)) console.log(`${r.p.toFixed(1).padStart(8)} ${r.m.toFixed(1).padStart(8)} ${r.d >= 0 ? '+' : ''}${r.d.toFixed(1).padStart(7)}  ${r.k}`);
    console.log(`\n${kind} µs per request, member's top`);
    for (const r of rows.sort((a, b) => b.m - a.m).slice(0, TOP)) console.log(`${r.p.toFixed(1).padStart(8)} ${r.m.toFixed(1).padStart(8)} ${r.d >= 0 ? '+' : ''}${r.d.toFixed(1).padStart(7)}  ${r.k}`);
  }
  await gw.stop();
  await upstream.stop();
}

await runMain(main);
