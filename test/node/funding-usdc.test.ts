import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChain, type Chain } from '../upstreams/anvil';
import { fundedAgent, type TestAgent } from './agents';
import { startGateway, type RunningGateway } from './gateway-process';

/**
 * USDC on Base as an agent meets it: the gateway started with `npm start` and `.dev.vars`, a real
 * local EVM node (anvil) with a 6-decimal token standing in for USDC, `POST /agent/fund`, an
 * on-chain transfer of exactly `amount_usdc`, and `GET /agent/account` until the balance rises.
 */

const ADMIN = 'usdc-admin-token-0123456789';
const CONFIRMATIONS = 2;
let chain: Chain;
let gateway: RunningGateway;
let depositAddress: `0x${string}`;

beforeAll(async () => {
  chain = await startChain();
  depositAddress = chain.accounts[9]!;
  await chain.mint(chain.payer, 1_000_000_000_000n);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    BASE_RPC_URL: chain.rpcUrl,
    USDC_CONTRACT: chain.token,
    USDC_DEPOSIT_ADDRESS: depositAddress,
    USDC_CONFIRMATIONS: String(CONFIRMATIONS),
  });
});
afterAll(async () => {
  await gateway?.stop();
  await chain?.stop();
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const admin = (path: string, init: RequestInit = {}) => fetch(`${gateway.url}/admin${path}`, { ...init, headers: { Authorization: `Bearer ${ADMIN}` } });

interface Intent {
  payment_intent: string;
  network: string;
  deposit_address: string;
  token: string;
  token_contract: string;
  amount_usdc: string;
  amount_usd: number;
  instructions: string;
  expires_at: string;
}

async function fund(agent: TestAgent, body: unknown): Promise<Response> {
  return fetch(`${gateway.url}/agent/fund`, { method: 'POST', headers: { Authorization: `Bearer ${agent.apiKey}` }, body: JSON.stringify(body) });
}

/** Polls until `done` holds, every half second, for at most `ms`. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!done(value)) {
    if (Date.now() > deadline) return value;
    await sleep(500);
    value = await read();
  }
  return value;
}

interface AdminDeposit {
  id: string;
  tx_hash: string;
  amount_usdc: string;
  status: string;
  account_id: string | null;
}

const unmatched = async () => ((await (await admin('/deposits/unmatched')).json()) as { data: AdminDeposit[] }).data;

describe('POST /agent/fund', () => {
  it('answers every field of the spec, with an amount unique among open intents', async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    const res = await fund(agent, { amount_usd: 25 });
    expect(res.status).toBe(200);
    const intent = (await res.json()) as Intent;
    expect(intent).toMatchObject({ network: 'base', token: 'usdc', deposit_address: depositAddress, token_contract: chain.token, amount_usd: 25 });
    expect(intent.payment_intent).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    // Whole dollars plus a tail of 1 to 999,999 micro-USDC.
    expect(intent.amount_usdc).toMatch(/^25\.\d{6}$/);
    expect(intent.amount_usdc).not.toBe('25.000000');
    expect(intent.instructions).toContain(intent.amount_usdc);
    expect(intent.instructions).toContain('60 minutes');
    // Ten open intents per account (src/funding/intents.ts): the other 20 come from three accounts.
    const [second, third] = [await fundedAgent(gateway.url, ADMIN, '0'), await fundedAgent(gateway.url, ADMIN, '0')];
    const holders = [...Array<TestAgent>(9).fill(agent), ...Array<TestAgent>(10).fill(second), third];
    const others = await Promise.all(holders.map(async (holder) => ((await (await fund(holder, { amount_usd: 25 })).json()) as Intent).amount_usdc));
    expect(new Set([intent.amount_usdc, ...others]).size).toBe(21);
  });

  it.each([[4], [10_001], [10.5], ['10'], [null]])('refuses amount_usd %s with 400 naming it', async (amount) => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    const res = await fund(agent, { amount_usd: amount });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('amount_usd');
  });
});

describe('USDC deposits', () => {
  it('credits exactly what arrived once confirmed, records a second transfer of the same amount as unmatched, and lets the operator credit it once', { timeout: 90_000 }, async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    expect((await agent.account()).balance_usd).toBe('0.000000');
    const intent = (await (await fund(agent, { amount_usd: 10 })).json()) as Intent;
    const sent = micros(intent.amount_usdc);

    const transfer = await chain.transfer(chain.payer, depositAddress, sent);
    // One confirmation is not enough: nothing is credited until the next block.
    await sleep(4_000);
    expect((await agent.account()).balance_usd).toBe('0.000000');
    const confirmedAt = Date.now();
    await chain.mine(CONFIRMATIONS - 1);
    const account = await until(agent.account, (a) => a.balance_usd !== '0.000000', 30_000);
    console.log(`usdc: credited ${Date.now() - confirmedAt} ms after the confirming block`);
    expect(account.balance_usd).toBe(intent.amount_usdc);
    const full = (await (await admin(`/accounts/${agent.accountId}`)).json()) as {
      expires_unless_funded_at: string | null;
      ledger: { kind: string; source: string | null; amount_usd: string }[];
      funding: { deposits: AdminDeposit[] };
    };
    expect(full.expires_unless_funded_at).toBeNull();
    expect(full.ledger.filter((row) => row.kind === 'credit')).toEqual([expect.objectContaining({ source: 'usdc', amount_usd: intent.amount_usdc })]);
    expect(full.funding.deposits).toEqual([expect.objectContaining({ id: `${transfer.hash}:${transfer.logIndex}`, status: 'credited', amount_usdc: intent.amount_usdc })]);

    // The intent is used up: the same amount again matches nothing and waits for the operator.
    const again = await chain.transfer(chain.payer, depositAddress, sent);
    await chain.mine(CONFIRMATIONS - 1);
    const waiting = await until(unmatched, (rows) => rows.some((row) => row.tx_hash === again.hash), 30_000);
    const stray = waiting.find((row) => row.tx_hash === again.hash)!;
    expect(stray).toMatchObject({ status: 'unmatched', amount_usdc: intent.amount_usdc, account_id: null });
    expect((await agent.account()).balance_usd).toBe(intent.amount_usdc);

    const byHand = () =>
      fetch(`${gateway.url}/admin/deposits/${stray.id}/credit`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN}` },
        body: JSON.stringify({ account_id: agent.accountId, reason: 'sent twice by mistake' }),
      });
    const first = (await (await byHand()).json()) as { credited: boolean; deposit: AdminDeposit };
    expect(first).toMatchObject({ credited: true, deposit: { status: 'credited', account_id: agent.accountId } });
    const second = (await (await byHand()).json()) as { credited: boolean };
    expect(second.credited).toBe(false);
    expect(micros((await agent.account()).balance_usd)).toBe(2 * sent);
    expect((await unmatched()).some((row) => row.id === stray.id)).toBe(false);
  });

  it('credits nothing for a transfer reorged away before its confirmations', { timeout: 60_000 }, async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    const intent = (await (await fund(agent, { amount_usd: 7 })).json()) as Intent;
    await chain.transfer(chain.payer, depositAddress, micros(intent.amount_usdc));
    // The watcher sees the transfer in its block (a pass every 3 s), then the block is replaced.
    await sleep(4_000);
    await chain.reorg(1);
    await chain.mine(CONFIRMATIONS + 2);
    await sleep(8_000);
    expect((await agent.account()).balance_usd).toBe('0.000000');
    expect((await unmatched()).some((row) => row.amount_usdc === intent.amount_usdc)).toBe(false);

    // The intent is still open: paying it now, on the new chain, credits it.
    await chain.transfer(chain.payer, depositAddress, micros(intent.amount_usdc));
    await chain.mine(CONFIRMATIONS - 1);
    expect((await until(agent.account, (a) => a.balance_usd !== '0.000000', 30_000)).balance_usd).toBe(intent.amount_usdc);
  });

  it('credits within 60 s a transfer that a reorg deeper than the confirmations places at a height already read (69 confirmations)', { timeout: 90_000 }, async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    const intent = (await (await fund(agent, { amount_usd: 9 })).json()) as Intent;
    await chain.mine(12);
    // The watcher (a pass every 3 s while an intent is open) reads up to head - 1.
    await sleep(7_000);
    const depth = CONFIRMATIONS + 6;
    await chain.reorg(depth, [[chain.transferRequest(chain.payer, depositAddress, micros(intent.amount_usdc)), 0]]);
    await chain.mine(69 - depth);
    const account = await until(agent.account, (a) => a.balance_usd !== '0.000000', 60_000);
    expect(account.balance_usd).toBe(intent.amount_usdc);
  });

  it('credits nothing twice when the gateway is killed and started again mid-way', { timeout: 120_000 }, async () => {
    const agent = await fundedAgent(gateway.url, ADMIN, '0');
    const intents = await Promise.all([5, 6, 8].map(async (usd) => (await (await fund(agent, { amount_usd: usd })).json()) as Intent));
    for (const intent of intents) await chain.transfer(chain.payer, depositAddress, micros(intent.amount_usdc));
    await chain.mine(CONFIRMATIONS - 1);
    // Killed while the watcher may be crediting, then started again on the same state.
    await sleep(1_500);
    await gateway.crash();
    await gateway.restart();
    const total = intents.reduce((sum, intent) => sum + micros(intent.amount_usdc), 0);
    const account = await until(agent.account, (a) => micros(a.balance_usd) >= total, 45_000);
    // A few more passes: nothing more arrives.
    await sleep(7_000);
    expect(micros((await agent.account()).balance_usd)).toBe(total);
    expect(micros(account.balance_usd)).toBe(total);
    const ledger = (await (await admin(`/accounts/${agent.accountId}/ledger?limit=100`)).json()) as { data: { kind: string; source: string | null }[] };
    expect(ledger.data.filter((row) => row.kind === 'credit' && row.source === 'usdc')).toHaveLength(3);
  });
});
