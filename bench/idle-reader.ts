/**
 * Chunks per second through `idleReader` and `readAllIdle` (src/providers/idle.ts) on a stream of
 * 10,000 small chunks that are all ready at once, against a bare reader: what the idle bound costs
 * per chunk. Not part of `npm run bench`; run it alone: `npx tsx bench/idle-reader.ts`.
 * Medians on Node 20, a shared 2-core machine (Dec 2026): a bare reader about 3.0-3.6 M chunks/s;
 * with a setTimeout and clearTimeout per read, idleReader 0.9-1.05 M and readAllIdle 0.53-0.56 M;
 * with one re-armed timer per stream (and the abort passed to the reader, not raced per read),
 * idleReader 2.6-2.8 M and readAllIdle 2.2-2.3 M.
 */
import { idleReader, readAllIdle } from '../src/providers/idle';

const CHUNKS = 10_000;
const ROUNDS = 15;
const IDLE_MS = 60_000;

function stream(): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode('data: {"choices":[{"delta":{"content":"hi"}}]}\n\n');
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent++ < CHUNKS) controller.enqueue(chunk);
      else controller.close();
    },
  });
}

async function bare(): Promise<void> {
  const reader = stream().getReader();
  while (!(await reader.read()).done);
}

async function idle(): Promise<void> {
  const reader = idleReader(stream(), IDLE_MS);
  while (!(await reader.read()).done);
}

async function readAll(): Promise<void> {
  await readAllIdle(stream(), IDLE_MS);
}

async function measure(name: string, run: () => Promise<void>): Promise<void> {
  const rates: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    await run();
    rates.push(CHUNKS / ((performance.now() - started) / 1000));
  }
  rates.sort((a, b) => a - b);
  const median = rates[Math.floor(ROUNDS / 2)]!;
  console.log(`${name.padEnd(12)} median ${Math.round(median).toLocaleString('en')} chunks/s (min ${Math.round(rates[0]!).toLocaleString('en')}, max ${Math.round(rates.at(-1)!).toLocaleString('en')})`);
}

await measure('bare reader', bare);
await measure('idleReader', idle);
await measure('readAllIdle', readAll);
