import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAIUpstream } from '../upstreams/openai';
import type { Upstream } from '../upstreams/server';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * Money survives a crash: the gateway's process group is killed with SIGKILL in the middle of
 * concurrent chat requests from one account, started again on the same local state, and the
 * ledger is checked to the micro-dollar against what every client was told.
 */

const ADMIN = 'crash-admin-token-0123456789';
/**
 * The bound docs/operators/money.md states for chat holds of requests that died with the gateway: free again
 * within 30 seconds of the crash (the lease), a minute at most counting the alarm's retries.
 */
const CHAT_HOLD_BOUND_MS = 60_000;

let upstream: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  upstream = await startOpenAIUpstream();
  gateway = await startGateway({ ADMIN_TOKEN: ADMIN, OPENAI_API_KEY: 'sk-crash', OPENAI_BASE_URL: `${upstream.url}/v1` });
});
afterAll(async () => {
  await gateway?.stop();
  await upstream?.stop();
});

const micros = (usd: string) => {
  const negative = usd.startsWith('-');
  const [whole, fraction = ''] = usd.replace('-', '').split('.');
  const value = Number(whole) * 1_000_000 + Number(fraction.padEnd(6, '0'));
  return negative ? -value : value;
};

interface LedgerRow {
  kind: 'credit' | 'hold' | 'charge' | 'release';
  amount_usd: string;
  hold_id: string | null;
  request_id: string | null;
  note: string | null;
}

const admin = (path: string, init: RequestInit = {}) => fetch(`${gateway.url}/admin${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN}` } });

async function fundedAccount(usd: string) {
  const registered = await fetch(`${gateway.url}/agent/register`, {
    method: 'POST',
    headers: { 'CF-Connecting-IP': `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
    body: JSON.stringify({ type: 'anonymous' }),
  });
  const { api_key: apiKey, account_id: accountId } = (await registered.json()) as { api_key: string; account_id: string };
  const credited = await admin(`/accounts/${accountId}/credits`, { method: 'POST', body: JSON.stringify({ amount_usd: usd, reason: 'crash test' }) });
  expect(credited.status).toBe(200);
  return { apiKey, accountId };
}

/** The whole ledger, oldest first, read page by page through the operator API. */
async function fullLedger(accountId: string): Promise<LedgerRow[]> {
  const rows: LedgerRow[] = [];
  let cursor: string | null = null;
  do {
    const res = await admin(`/accounts/${accountId}/ledger?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.status).toBe(200);
    const page = (await res.json()) as { data: LedgerRow[]; next_cursor: string | null };
    rows.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return rows.reverse();
}

interface AdminHold {
  id: string;
  amount_usd: string;
  request_id: string | null;
  created_at: string;
  expires_at: string;
}

async function adminAccount(accountId: string) {
  return (await (await admin(`/accounts/${accountId}`)).json()) as { balance_usd: string; held_usd: string; holds: AdminHold[]; expired_unsettled_holds: number };
}

/** What one chat request told its client: its request id and cost, or nothing when it never finished. */
interface Told {
  requestId: string | null;
  costMicros: number | null;
}

async function chat(apiKey: string, stream: boolean, slow: boolean): Promise<Told> {
  let requestId: string | null = null;
  try {
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream, max_tokens: 400, messages: [{ role: 'user', content: slow ? 'Count [slow]' : 'Hi' }] }),
    });
    requestId = res.headers.get('X-Service-Request-Id');
    if (res.status !== 200) return { requestId, costMicros: null };
    if (!stream) {
      await res.json();
      return { requestId, costMicros: micros(res.headers.get('X-Service-Cost')!) };
    }
    const text = await res.text();
    if (!text.trimEnd().endsWith('data: [DONE]')) return { requestId, costMicros: null };
    const frames = text.split('\n\n').filter((frame) => frame.startsWith('data: {'));
    const final = JSON.parse(frames.at(-1)!.slice(6)) as { x_service: { cost_usd: string } };
    return { requestId, costMicros: micros(final.x_service.cost_usd) };
  } catch {
    // The gateway died under this request: the client was told nothing.
    return { requestId, costMicros: null };
  }
}

/** Runs `total` requests, `concurrency` at a time, a mix of fast and slow, streamed and not. */
function load(apiKey: string, total: number, concurrency: number, slowShare: number): Promise<Told[]> {
  const told: Told[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      told.push(await chat(apiKey, i % 2 === 0, (i * 7) % 10 < slowShare * 10));
    }
  };
  return Promise.all(Array.from({ length: concurrency }, worker)).then(() => told);
}

/** The money rules that hold after any run, crash or not. */
function checkLedger(rows: LedgerRow[], balanceMicros: number, told: Told[]) {
  const sum = (kind: LedgerRow['kind']) => rows.filter((row) => row.kind === kind).reduce((total, row) => total + micros(row.amount_usd), 0);
  // The balance is the credits minus the charges, exactly.
  expect(sum('credit') + sum('charge')).toBe(balanceMicros);
  // No hold is charged twice, and every charge belongs to a hold that was placed.
  const charges = rows.filter((row) => row.kind === 'charge');
  expect(new Set(charges.map((row) => row.hold_id)).size).toBe(charges.length);
  const holds = new Set(rows.filter((row) => row.kind === 'hold').map((row) => row.hold_id));
  for (const charge of charges) expect(holds.has(charge.hold_id)).toBe(true);
  // Every cost a client was told is a charge of that request, to the micro-dollar.
  const chargedByRequest = new Map(charges.map((row) => [row.request_id, -micros(row.amount_usd)]));
  const toldCosts = told.filter((t): t is { requestId: string; costMicros: number } => t.costMicros !== null && t.requestId !== null);
  for (const { requestId, costMicros } of toldCosts) expect(chargedByRequest.get(requestId), requestId).toBe(costMicros);
  return { charges, toldCosts };
}

describe('a chat hold as the operator sees it', () => {
  it('names its request and lives on a 30-second lease, and its charge names the request too', async () => {
    const { apiKey, accountId } = await fundedAccount('1.00');
    const client = new AbortController();
    const res = await fetch(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Count [slow]' }] }),
      signal: client.signal,
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('X-Service-Request-Id');
    const [hold] = (await adminAccount(accountId)).holds;
    expect(hold?.request_id).toBe(requestId);
    expect(Date.parse(hold!.expires_at) - Date.parse(hold!.created_at)).toBe(30_000);

    // The client leaves: the stream is charged for what was generated, under its request id.
    client.abort();
    let account = await adminAccount(accountId);
    for (let i = 0; i < 50 && account.holds.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      account = await adminAccount(accountId);
    }
    expect(account.holds).toEqual([]);
    const rows = (await fullLedger(accountId)).filter((row) => row.hold_id === hold!.id);
    expect(rows.map((row) => [row.kind, row.request_id])).toEqual([
      ['hold', requestId],
      ['charge', requestId],
      ['release', requestId],
    ]);
  });
});

describe('a crash in the middle of chat traffic', () => {
  it('without a crash: what clients were told is exactly what was charged and what the balance lost', async () => {
    const { apiKey, accountId } = await fundedAccount('1.00');
    const told = await load(apiKey, 60, 16, 0);
    expect(told.every((t) => t.costMicros !== null)).toBe(true);
    // A loaded account's Durable Object is slow to answer, so some settlements go by the journal,
    // which answers the client first and reaches the account moments later (docs/contributors/money.md, "Durable near the Worker when the account is far").
    let account = await adminAccount(accountId);
    for (let i = 0; i < 50 && account.holds.length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      account = await adminAccount(accountId);
    }
    const { charges, toldCosts } = checkLedger(await fullLedger(accountId), micros(account.balance_usd), told);
    expect(toldCosts).toHaveLength(60);
    expect(charges).toHaveLength(60);
    const toldTotal = toldCosts.reduce((sum, t) => sum + t.costMicros, 0);
    expect(1_000_000 - micros(account.balance_usd)).toBe(toldTotal);
    expect(account.held_usd).toBe('0.000000');
  });

  it('SIGKILL mid-load: money exact, told costs charged, holds freed within the bound, service back', { timeout: CHAT_HOLD_BOUND_MS + 120_000 }, async () => {
    const { apiKey, accountId } = await fundedAccount('1.00');
    const running = load(apiKey, 300, 64, 0.5);
    // Let fast requests finish and slow ones pile up (a slow answer takes 10 s), then kill.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const killed = Date.now();
    await gateway.crash();
    const told = await running;
    const finished = told.filter((t) => t.costMicros !== null).length;
    expect(finished).toBeGreaterThan(10);
    expect(finished).toBeLessThan(300);

    await gateway.restart();
    const before = await adminAccount(accountId);
    checkLedger(await fullLedger(accountId), micros(before.balance_usd), told);
    // Holds of requests that died with the gateway lock money only until their lease runs out.
    const orphaned = (account: { holds: AdminHold[] }) => account.holds.filter((hold) => Date.parse(hold.created_at) < killed);
    // Some may be gone already: a restart slower than their 30-second lease (a loaded machine)
    // finds them expired, and the ledger's `expired` rows below still count them.

    // Meanwhile new requests run, two chains of slow streams: their holds must stay.
    let serving = true;
    const liveTold: Told[] = [];
    const live = Promise.all(
      [0, 1].map(async () => {
        while (serving) liveTold.push(await chat(apiKey, true, true));
      }),
    );
    let account = before;
    while (orphaned(account).length > 0) {
      expect(Date.now() - killed, `still held: ${account.held_usd}`).toBeLessThan(CHAT_HOLD_BOUND_MS);
      await new Promise((resolve) => setTimeout(resolve, 500));
      account = await adminAccount(accountId);
    }
    expect(Date.now() - killed).toBeLessThan(CHAT_HOLD_BOUND_MS);
    console.log(`crash: ${orphaned(before).length} orphaned holds at the restart, all freed ${Date.now() - killed} ms after the kill`);
    // What stays held is exactly the holds of the requests still running: balance − held is free.
    // (After a restart slower than the lease nothing was orphaned, so this is the first look since
    // the restart: wait for the live streams' holds.)
    for (let i = 0; i < 40 && account.holds.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      account = await adminAccount(accountId);
    }
    expect(account.holds.length).toBeGreaterThan(0);
    expect(micros(account.held_usd)).toBe(account.holds.reduce((sum, hold) => sum + micros(hold.amount_usd), 0));
    serving = false;
    await live;
    expect(liveTold.every((t) => t.costMicros !== null)).toBe(true);
    told.push(...liveTold);
    account = await adminAccount(accountId);
    expect(account.holds).toEqual([]);
    const rows = await fullLedger(accountId);
    checkLedger(rows, micros(account.balance_usd), told);
    // Each expired hold says why in the ledger, and the operator sees how many there were.
    const expired = rows.filter((row) => row.kind === 'release' && row.note === 'expired').length;
    expect(expired).toBeGreaterThan(0);
    expect(account.expired_unsettled_holds).toBe(expired);

    // The service is back: a request after the restart is served and charged.
    const after = await chat(apiKey, false, false);
    expect(after.costMicros).toBeGreaterThan(0);
    checkLedger(await fullLedger(accountId), micros((await adminAccount(accountId)).balance_usd), [...told, after]);
  });
});
