// The formats section of `npm run bench` (issue 37): the same upstream asked in each chat wire
// format. One gateway, the bench upstream speaking Chat Completions, Anthropic Messages and OpenAI
// Responses (bench/formats-upstream.mjs); seven targets taking turns request by request, so a slow
// spell of the machine falls on all of them: Chat Completions to an OpenAI and to an Anthropic
// model (through their adapters), Responses and Messages to their own provider (passed through),
// and each to the other's (translated); Responses with `store: false` (as Codex sends it), and once
// stored, which adds the store's write. Rows compare within this one run.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { applyMigrations, gatewayWorkerOptions, log, num, percentile, setupGateway, sorted, startMiniflare, UPSTREAM_KEY } from './lib.mjs';

const N = num('BENCH_FORMATS_N', 1000);
const STREAM_N = num('BENCH_FORMATS_STREAM_N', 200);
const CPU_N = num('BENCH_FORMATS_CPU_N', 1200);
/** CPU blocks per target: many short ones, so a burst of other work on the machine spoils a few blocks (read past by the median), not a quarter of the measure. */
const CPU_ROUNDS = num('BENCH_FORMATS_CPU_ROUNDS', 24);
const WARMUP = 30;
const OPENAI = 'openai/gpt-4o-mini';
const ANTHROPIC = 'anthropic/claude-haiku-4-5';
const PROMPT = 'Say hello';

const bodies = {
  chat: (model) => ({ model, messages: [{ role: 'user', content: PROMPT }], max_tokens: 16 }),
  messages: (model) => ({ model, messages: [{ role: 'user', content: PROMPT }], max_tokens: 16 }),
  // `store: false`, as Codex sends it: the format alone; the stored row adds the store's write (R2).
  responses: (model) => ({ model, input: PROMPT, max_output_tokens: 16, store: false }),
  'responses-stored': (model) => ({ model, input: PROMPT, max_output_tokens: 16 }),
};
export const FORMAT_PATHS = { chat: '/v1/chat/completions', messages: '/v1/messages', responses: '/v1/responses', 'responses-stored': '/v1/responses' };
/** A target's request body. */
export const formatBody = (target) => bodies[target.format](target.model);
/** What a complete stream of each format ends with. */
const END = { chat: 'data: [DONE]', messages: 'message_stop', responses: 'response.completed', 'responses-stored': 'response.completed' };

export const FORMAT_TARGETS = [
  { key: 'chat-openai', name: 'Chat Completions → OpenAI model', format: 'chat', model: OPENAI },
  { key: 'responses-openai', name: 'Responses → OpenAI model (passed through)', format: 'responses', model: OPENAI },
  { key: 'messages-openai', name: 'Messages → OpenAI model (translated)', format: 'messages', model: OPENAI },
  { key: 'chat-anthropic', name: 'Chat Completions → Anthropic model', format: 'chat', model: ANTHROPIC },
  { key: 'messages-anthropic', name: 'Messages → Anthropic model (passed through)', format: 'messages', model: ANTHROPIC },
  { key: 'responses-anthropic', name: 'Responses → Anthropic model (translated)', format: 'responses', model: ANTHROPIC },
  { key: 'responses-stored', name: 'Responses → OpenAI model, stored (the default `store`)', format: 'responses-stored', model: OPENAI },
];

/**
 * CPU time of the processes' threads in seconds, from /proc/<pid>/task/<tid>/schedstat (the
 * scheduler's nanoseconds on a CPU): exact, where /proc/<pid>/stat's utime + stime counts 10 ms
 * ticks, which over a block of 300 requests is 33 µs a request of resolution alone.
 */
function cpuSecondsExact(pids) {
  let nanos = 0;
  for (const pid of pids) {
    let tids = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited
    }
    for (const tid of tids) {
      try {
        nanos += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended
      }
    }
  }
  return nanos / 1e9;
}

async function once(client, url, target, stream, headers) {
  const res = await client.request(url, { ...formatBody(target), ...(stream && { stream: true }) }, headers);
  if (res.status !== 200 || (stream && !res.body.includes(END[target.format]))) {
    throw new Error(`${target.name}${stream ? ' (stream)' : ''}: status ${res.status}: ${res.body.slice(0, 300)}`);
  }
  return res;
}

/** Each target once per turn, in an order that swaps every turn, `n` turns: every target's times. */
async function turns(client, base, headers, n, stream, pick) {
  const out = new Map(FORMAT_TARGETS.map((t) => [t.key, []]));
  for (let i = 0; i < n; i++) {
    const order = i % 2 === 0 ? FORMAT_TARGETS : [...FORMAT_TARGETS].reverse();
    for (const t of order) out.get(t.key).push(pick(await once(client, `${base}${FORMAT_PATHS[t.format]}`, t, stream, headers)));
  }
  return out;
}

export async function measureFormats({ client, bundleDir, config, upstreamUrl, stateRoot }) {
  const options = gatewayWorkerOptions(bundleDir, config, upstreamUrl);
  options.bindings = { ...options.bindings, ANTHROPIC_API_KEY: UPSTREAM_KEY, ANTHROPIC_BASE_URL: upstreamUrl };
  const gateway = await startMiniflare('formats-gateway', options, path.join(stateRoot, 'formats-gateway'));
  try {
    await applyMigrations(gateway.mf, config);
    const { apiKey } = await setupGateway(client, gateway.url);
    const headers = { Authorization: `Bearer ${apiKey}` };
    log(`formats: ${FORMAT_TARGETS.length} targets in turns, ${N} non-streamed and ${STREAM_N} streamed each, then ${CPU_N} per target for CPU`);
    await turns(client, gateway.url, headers, WARMUP, false, () => 0);
    await turns(client, gateway.url, headers, WARMUP, true, () => 0);
    const total = await turns(client, gateway.url, headers, N, false, (r) => r.totalMs);
    const ttfb = await turns(client, gateway.url, headers, STREAM_N, true, (r) => r.ttfbMs);
    // CPU per request: a block per target (a process's CPU cannot be split between requests in turn), in rounds;
    // the checks compare blocks of one round, which ran next to each other.
    // The stored target's R2 writes leave work behind (the local R2 stand-in's own storage) that
    // would fall on the next block: it is measured alone, after the others.
    const cpu = new Map(FORMAT_TARGETS.map((t) => [t.key, []]));
    const block = async (t) => {
      const before = cpuSecondsExact(gateway.pids);
      const n = Math.ceil(CPU_N / CPU_ROUNDS);
      for (let i = 0; i < n; i++) await once(client, `${gateway.url}${FORMAT_PATHS[t.format]}`, t, false, headers);
      cpu.get(t.key).push(((cpuSecondsExact(gateway.pids) - before) / n) * 1e6);
    };
    const unstored = FORMAT_TARGETS.filter((t) => t.format !== 'responses-stored');
    for (let round = 0; round < CPU_ROUNDS; round++) for (const t of round % 2 === 0 ? unstored : [...unstored].reverse()) await block(t);
    for (const t of FORMAT_TARGETS.filter((target) => target.format === 'responses-stored')) for (let round = 0; round < CPU_ROUNDS; round++) await block(t);
    return report(total, ttfb, cpu);
  } finally {
    await gateway.stop();
  }
}

function report(total, ttfb, cpu) {
  const p50 = (values) => percentile(sorted(values), 50);
  const row = (key) => ({ p50: p50(total.get(key)), p99: percentile(sorted(total.get(key)), 99), ttfb: p50(ttfb.get(key)), cpu: p50(cpu.get(key)) });
  // A target's CPU over its reference's: the median of the rounds' differences, and their middle half.
  const cpuOver = (key, reference) => {
    const diffs = sorted(cpu.get(key).map((value, round) => value - cpu.get(reference)[round]));
    const signed = (x) => `${x >= 0 ? '+' : ''}${x.toFixed(0)}`;
    return `${signed(p50(diffs))} µs (middle half of the rounds: ${signed(percentile(diffs, 25))} to ${signed(percentile(diffs, 75))})`;
  };
  const rows = Object.fromEntries(FORMAT_TARGETS.map((t) => [t.key, row(t.key)]));
  const f2 = (x) => x.toFixed(2);
  const d = (a, b) => `${a - b >= 0 ? '+' : ''}${(a - b).toFixed(2)}`;
  const lines = [
    '### Formats',
    '',
    '| target | c=1 p50 (ms) | c=1 p99 (ms) | stream TTFB p50 (ms) | workerd CPU per request (µs) |',
    '|:--|--:|--:|--:|--:|',
    ...FORMAT_TARGETS.map((t) => `| ${t.name} | ${f2(rows[t.key].p50)} | ${f2(rows[t.key].p99)} | ${f2(rows[t.key].ttfb)} | ${rows[t.key].cpu.toFixed(0)} |`),
    '',
    '| check (issue 37) | measured | target |',
    '|:--|--:|--:|',
    `| Responses passed through, over Chat Completions to the same OpenAI upstream: p50 | ${d(rows['responses-openai'].p50, rows['chat-openai'].p50)} ms | ≤ +0.20 ms |`,
    `| the same: CPU per request | ${cpuOver('responses-openai', 'chat-openai')} | ≤ +100 µs |`,
    `| Messages passed through, over Chat Completions to the same Anthropic upstream: p50 | ${d(rows['messages-anthropic'].p50, rows['chat-anthropic'].p50)} ms | ≤ +0.20 ms |`,
    `| the same: CPU per request | ${cpuOver('messages-anthropic', 'chat-anthropic')} | ≤ +100 µs |`,
    `| Messages translated (OpenAI model): stream TTFB over the passed-through Messages stream | ${d(rows['messages-openai'].ttfb, rows['messages-anthropic'].ttfb)} ms | ≤ +0.50 ms |`,
    `| Responses translated (Anthropic model): stream TTFB over the passed-through Responses stream | ${d(rows['responses-anthropic'].ttfb, rows['responses-openai'].ttfb)} ms | ≤ +0.50 ms |`,
    `| Storing the response (R2 record and day marker, written before the answer), over \`store: false\`: p50 | ${d(rows['responses-stored'].p50, rows['responses-openai'].p50)} ms | — |`,
    '',
    `- ${N} non-streamed and ${STREAM_N} streamed requests per target at c=1, the ${FORMAT_TARGETS.length} taking turns (order reversed every turn) on one gateway and one upstream (5 words, 10 ms apart when streamed); CPU: ${CPU_N} sequential requests per target in ${CPU_ROUNDS} blocks, the targets in turn (order reversed every round; the stored target's blocks after all the others), the gateway's workerd threads' time on a CPU per request (/proc schedstat, in nanoseconds); a target's CPU is its blocks' median, a check the median of the rounds' differences.`,
    `- Run ${new Date().toISOString()}.`,
  ];
  return lines.join('\n');
}
