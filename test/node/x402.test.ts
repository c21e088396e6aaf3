import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm';
import { wrapFetchWithPaymentFromConfig } from '@x402/fetch';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc, startChain, type Chain } from '../upstreams/anvil';
import type { Upstream } from '../upstreams/server';
import { startX402Facilitator } from '../upstreams/x402-facilitator';
import { startFalUpstream, type FalUpstream } from '../upstreams/fal';
import { startWebsite } from '../upstreams/website';
import { STACK_ADMIN_TOKEN, startStack, type Stack } from './stack';

/**
 * x402 (issue #22, D23) as an agent meets it: the gateway under `wrangler dev`, anvil with the
 * EIP-3009 test USDC, and the ecosystem's own client (`@x402/fetch` with `@x402/evm`'s exact
 * scheme) paying the `PAYMENT-REQUIRED` challenge of a 402. Settlement in process, with the
 * relayer's key (dev account 8) paying gas.
 */

// anvil's well-known dev account 8 (mnemonic "test test ... junk"): the relayer.
const RELAYER_KEY = '0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97';
// anvil's dev account 7: the facilitator's own relayer.
const FACILITATOR_KEY = '0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356';
let chain: Chain;
let stack: Stack;
let depositAddress: `0x${string}`;
let site: Upstream;
let fal: FalUpstream;
const FAL_KEY = 'fal-x402-test';

beforeAll(async () => {
  [chain, site, fal] = await Promise.all([startChain(), startWebsite(), startFalUpstream(FAL_KEY)]);
  depositAddress = chain.accounts[9]!;
  stack = await startStack({
    WEB_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
    WEB_BLOCKED_DOMAINS: 'localhost',
    FAL_API_KEY: FAL_KEY,
    FAL_BASE_URL: fal.url,
    BASE_RPC_URL: chain.rpcUrl,
    USDC_CONTRACT: chain.token,
    USDC_DEPOSIT_ADDRESS: depositAddress,
    X402_RELAYER_PRIVATE_KEY: RELAYER_KEY,
    X402_MIN_TOPUP_USD: '1.00',
  });
}, 180_000);
afterAll(async () => {
  await stack?.stop();
  await Promise.all([chain?.stop(), site?.stop(), fal?.stop()]);
});

// spendControls: false, as the test token is not Base's USDC (the client's default allow-list).
/** A fresh wallet with `usdcMicros` minted to it. */
async function wallet(usdcMicros: bigint): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (usdcMicros > 0n) await chain.mint(account.address, usdcMicros);
  return account;
}

const payingFetch = (account: PrivateKeyAccount) =>
  wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: `eip155:${chain.chainId}`, client: new ExactEvmScheme(account) }], spendControls: false });

const chatBody = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], ...extra });

const keyed = (apiKey: string, extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', ...extra });

describe('x402 on keyed /v1 routes (relayer settlement)', () => {
  it('a 402 carries a PAYMENT-REQUIRED challenge for the shortfall, at least the minimum, and error.funding.x402 is true', async () => {
    const agent = await stack.fundedAccount('0');
    const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(402);
    const body = (await res.json()) as { error: { code: string; funding: { x402: boolean } } };
    expect(body.error.code).toBe('insufficient_credits');
    expect(body.error.funding.x402).toBe(true);
    const challenge = decodePaymentRequiredHeader(res.headers.get('PAYMENT-REQUIRED')!);
    expect(challenge.x402Version).toBe(2);
    expect(challenge.accepts).toEqual([
      {
        scheme: 'exact',
        network: 'eip155:8453',
        asset: chain.token,
        payTo: depositAddress,
        amount: '1000000',
        maxTimeoutSeconds: expect.any(Number),
        extra: { name: 'USD Coin', version: '2' },
      },
    ]);
  });

  it('the official client pays the challenge: chat is served and charged, the payment credited once, PAYMENT-RESPONSE names the transaction', async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(5_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(200);
    const completion = (await res.json()) as { choices: unknown[] };
    expect(completion.choices.length).toBeGreaterThan(0);
    const settled = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settled).toMatchObject({ success: true, network: 'eip155:8453', payer: payer.address });
    expect(settled.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await chain.balanceOf(payer.address)).toBe(4_000_000n);
    const balance = Number(await agent.balance());
    expect(balance).toBeGreaterThan(0.99);
    expect(balance).toBeLessThan(1);
  });

  it("the payment's transfer is recorded as a deposit credited to the account: never unmatched, and the operator's hand credit of it adds nothing", async () => {
    const [agent, other] = await Promise.all([stack.fundedAccount('0'), stack.fundedAccount('0')]);
    const payer = await wallet(5_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(200);
    const { transaction } = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    const admin = { Authorization: `Bearer ${STACK_ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
    const view = (await (await fetch(`${stack.gateway.url}/admin/accounts/${agent.accountId}`, { headers: admin })).json()) as { funding: { deposits: { id: string; status: string; tx_hash: string; amount_usdc: string }[] } };
    const [deposit] = view.funding.deposits;
    expect(deposit).toMatchObject({ status: 'credited', tx_hash: transaction });
    const unmatched = (await (await fetch(`${stack.gateway.url}/admin/deposits/unmatched`, { headers: admin })).json()) as { data: { id: string }[] };
    expect(unmatched.data.map((d) => d.id)).not.toContain(deposit!.id);
    const balance = await agent.balance();
    const again = await fetch(`${stack.gateway.url}/admin/deposits/${encodeURIComponent(deposit!.id)}/credit`, { method: 'POST', headers: admin, body: JSON.stringify({ account_id: agent.accountId, reason: 'looks unpaid' }) });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { credited: boolean }).credited).toBe(false);
    expect(await agent.balance()).toBe(balance);
    const elsewhere = await fetch(`${stack.gateway.url}/admin/deposits/${encodeURIComponent(deposit!.id)}/credit`, { method: 'POST', headers: admin, body: JSON.stringify({ account_id: other.accountId, reason: 'the sender asked' }) });
    expect(elsewhere.status).toBe(400);
    expect(await other.balance()).toBe('0.000000');
  });

  it('streams a paid chat', async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(2_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody({ stream: true }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('PAYMENT-RESPONSE')).toBeTruthy();
    expect(await res.text()).toContain('[DONE]');
    expect(Number(await agent.balance())).toBeLessThan(1);
    expect(Number(await agent.balance())).toBeGreaterThan(0.99);
  });

  it('a replayed payment is answered 402 with a fresh challenge and credits once', async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(5_000_000n);
    let signature: string | undefined;
    const recording: typeof fetch = async (input, init) => {
      // The client retries with a Request whose headers carry the payment.
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      signature ??= headers.get('PAYMENT-SIGNATURE') ?? undefined;
      return fetch(input, init);
    };
    const first = await wrapFetchWithPaymentFromConfig(recording, { schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(payer) }], spendControls: false })(
      `${stack.gateway.url}/v1/chat/completions`,
      { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() },
    );
    expect(first.status).toBe(200);
    expect(signature).toBeTruthy();
    const after = await agent.balance();
    const replay = await fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey, { 'PAYMENT-SIGNATURE': signature! }), body: chatBody() });
    expect(replay.status).toBe(402);
    expect(((await replay.json()) as { error: { message: string } }).error.message).toMatch(/x402 payment was not accepted/);
    expect(replay.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
    expect(await agent.balance()).toBe(after);
    expect(await chain.balanceOf(payer.address)).toBe(4_000_000n);
  });

  /** Signs what the challenge asks, then lets `tamper` change the payload before it is sent. */
  async function payWith(apiKey: string, payer: PrivateKeyAccount, tamper: (accepted: PaymentPayload['accepted']) => PaymentPayload['accepted']): Promise<Response> {
    const challenge = await fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(apiKey), body: chatBody() });
    const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
    const accepted = tamper(required.accepts[0]!);
    const partial = await new ExactEvmScheme(payer).createPaymentPayload(2, accepted);
    const payload: PaymentPayload = { ...partial, x402Version: 2, accepted, resource: required.resource } as PaymentPayload;
    return fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(apiKey, { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }), body: chatBody() });
  }

  it.each([
    ['too little', (a: PaymentPayload['accepted']) => ({ ...a, amount: '500000' }), /at least 1000000/],
    ['a wrong payTo', (a: PaymentPayload['accepted']) => ({ ...a, payTo: chain.accounts[7]! }), /payTo must be/],
    ['an expired authorization', (a: PaymentPayload['accepted']) => ({ ...a, maxTimeoutSeconds: -700 }), /verification failed|settlement failed/],
  ])('%s: 402 with a fresh challenge, nothing served, nothing credited', async (_, tamper, reason) => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(5_000_000n);
    const res = await payWith(agent.apiKey, payer, tamper);
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(reason);
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
    expect(Number(await agent.balance())).toBe(0);
    expect(await chain.balanceOf(payer.address)).toBe(5_000_000n);
  });

  it('a payer without the funds: 402, nothing credited', async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(0n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/x402 payment was not accepted/);
    expect(Number(await agent.balance())).toBe(0);
  });
});

describe('x402 and reorgs', () => {
  it('a credit whose settlement a reorg removes is taken back: below zero and suspended when already spent (D28)', { timeout: 60_000 }, async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(2_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(200);
    const paidAt = Date.now();
    const { transaction } = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    const spent = 1 - Number(await agent.balance());
    expect(spent).toBeGreaterThan(0);
    // The settlement's block (the head: anvil mines one per transaction) is replaced by an empty one.
    await chain.reorg(1);
    await chain.mine(4);
    expect(await chain.balanceOf(payer.address)).toBe(2_000_000n);
    const admin = { Authorization: `Bearer ${STACK_ADMIN_TOKEN}` };
    const view = async () =>
      (await (await fetch(`${stack.gateway.url}/admin/accounts/${agent.accountId}`, { headers: admin })).json()) as {
        balance_usd: string;
        suspended: { reason: string } | null;
        funding: { deposits: { tx_hash: string; status: string }[] };
      };
    const deadline = Date.now() + 30_000;
    let after = await view();
    while (after.suspended === null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      after = await view();
    }
    expect(after.suspended?.reason).toMatch(/reorg/);
    expect(Number(after.balance_usd)).toBeCloseTo(-spent, 6);
    expect(after.funding.deposits).toEqual([expect.objectContaining({ tx_hash: transaction, status: 'reversed' })]);

    // The relayer's dropped transaction left a gap in its nonces: the next payment still settles.
    while (Date.now() < paidAt + 2_500) await new Promise((resolve) => setTimeout(resolve, 100));
    const next = await stack.fundedAccount('0');
    const nextRes = await payingFetch(await wallet(2_000_000n))(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(next.apiKey), body: chatBody() });
    expect(nextRes.status).toBe(200);
  });

  it('a reorg that drops settlements after later ones were sent leaves no nonce gap behind: the next payments settle', { timeout: 90_000 }, async () => {
    const agents = await Promise.all(Array.from({ length: 4 }, () => stack.fundedAccount('0')));
    // Minted first, so the reorg below takes the two settlements and not the mints.
    const payers = [await wallet(2_000_000n), await wallet(2_000_000n), await wallet(2_000_000n), await wallet(2_000_000n)];
    const pay = (i: number) => payingFetch(payers[i]!)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agents[i]!.apiKey), body: chatBody() });
    // A is mined, then B is sent (and mined) with the next nonce: the relayer's mined count has moved past A.
    expect((await pay(0)).status).toBe(200);
    expect((await pay(1)).status).toBe(200);
    const sentAt = Date.now();
    await chain.reorg(2);
    expect(await chain.balanceOf(payers[0]!.address)).toBe(2_000_000n);
    expect(await chain.balanceOf(payers[1]!.address)).toBe(2_000_000n);
    // The node's mined count is back at A's nonce; once A is taken as dropped, the next settlements fill A's and B's nonces.
    while (Date.now() < sentAt + 2_500) await new Promise((resolve) => setTimeout(resolve, 100));
    const third = await pay(2);
    expect(third.status, await third.clone().text()).toBe(200);
    expect(await chain.balanceOf(payers[2]!.address)).toBe(1_000_000n);
    const fourth = await pay(3);
    expect(fourth.status, await fourth.clone().text()).toBe(200);
    expect(await chain.balanceOf(payers[3]!.address)).toBe(1_000_000n);
  });
});

describe('x402 with concurrent payers', () => {
  it('six payers at once, with a block every 2 seconds, are all settled and served', { timeout: 120_000 }, async () => {
    const agents = await Promise.all(Array.from({ length: 6 }, () => stack.fundedAccount('0')));
    const payers: PrivateKeyAccount[] = [];
    // One at a time: the deployer's mints would collide on its own nonce.
    for (let i = 0; i < agents.length; i++) payers.push(await wallet(2_000_000n));
    // Blocks every 2 seconds, as Base makes them: transactions wait in the pool, so nonces must not collide.
    await rpc(chain.rpcUrl, 'evm_setAutomine', [false]);
    await rpc(chain.rpcUrl, 'evm_setIntervalMining', [2]);
    try {
      const answers = await Promise.all(
        agents.map((agent, i) => payingFetch(payers[i]!)(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() })),
      );
      const statuses = await Promise.all(answers.map(async (res) => (res.status === 200 ? 200 : `${res.status} ${await res.text()}`)));
      expect(statuses).toEqual(Array(6).fill(200));
    } finally {
      await rpc(chain.rpcUrl, 'evm_setIntervalMining', [0]);
      await rpc(chain.rpcUrl, 'evm_setAutomine', [true]);
    }
    for (const payer of payers) expect(await chain.balanceOf(payer.address)).toBe(1_000_000n);
  });
});

describe('x402 on /mcp', () => {
  it('a payment on /mcp is credited once and the tool call is then served, not asked to pay again', async () => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(5_000_000n);
    const challenge = await fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
    const accepted = required.accepts[0]!;
    const partial = await new ExactEvmScheme(payer).createPaymentPayload(2, accepted);
    const payment = encodePaymentSignatureHeader({ ...partial, x402Version: 2, accepted, resource: required.resource } as PaymentPayload);
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'chat_completion', arguments: { model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }] } },
    };
    const res = await fetch(`${stack.gateway.url}/mcp`, {
      method: 'POST',
      headers: keyed(agent.apiKey, { Accept: 'application/json, text/event-stream', 'PAYMENT-SIGNATURE': payment }),
      body: JSON.stringify(call),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
    expect(body.result.isError, body.result.content[0]?.text).toBeUndefined();
    expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({ success: true, payer: payer.address });
    expect(await chain.balanceOf(payer.address)).toBe(4_000_000n);
    const balance = Number(await agent.balance());
    expect(balance).toBeGreaterThan(0.99);
    expect(balance).toBeLessThan(1);
  });
});

describe('x402 without a key: the /x402 prefix', () => {
  it('answers 402 with a challenge for the worst case (at least the minimum), validated as the route would', async () => {
    const crawl = await fetch(`${stack.gateway.url}/x402/v1/crawl`, { method: 'POST', body: JSON.stringify({ url: 'https://example.com/', limit: 500 }) });
    expect(crawl.status).toBe(402);
    // 500 pages at $0.005: the challenge asks for the whole worst case.
    expect(decodePaymentRequiredHeader(crawl.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.amount).toBe('2500000');
    const chat = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', body: chatBody({ max_tokens: 50 }) });
    expect(chat.status).toBe(402);
    expect(decodePaymentRequiredHeader(chat.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.amount).toBe('1000000');
    const invalid = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'openai/gpt-4o-mini' }) });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: { param: string } }).error.param).toBe('messages');
  });

  it('a paid retry makes a funded account, serves the request and answers its credentials once; the key then spends the rest on /v1', async () => {
    const payer = await wallet(3_000_000n);
    let signature: string | undefined;
    const recording: typeof fetch = async (input, init) => {
      const headers = new Headers(input instanceof Request ? input.headers : init?.headers);
      signature ??= headers.get('PAYMENT-SIGNATURE') ?? undefined;
      return fetch(input, init);
    };
    const pay = wrapFetchWithPaymentFromConfig(recording, { schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(payer) }], spendControls: false });
    const res = await pay(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: chatBody({ max_tokens: 50 }) });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: unknown[] }).choices.length).toBeGreaterThan(0);
    const apiKey = res.headers.get('X-Service-Api-Key')!;
    const accountId = res.headers.get('X-Service-Account-Id')!;
    expect(apiKey).toMatch(/^ak-/);
    expect(res.headers.get('X-Service-Claim-Token')).toMatch(/^act_/);
    const cost = Number(res.headers.get('X-Service-Cost'));
    expect(cost).toBeGreaterThan(0);
    expect(decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({ success: true, payer: payer.address });
    expect(await chain.balanceOf(payer.address)).toBe(2_000_000n);

    const account = (await (await fetch(`${stack.gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { account_id: string; balance_usd: string };
    expect(account.account_id).toBe(accountId);
    // Funded by the payment alone (no welcome credit), less what the request cost.
    expect(Number(account.balance_usd)).toBeCloseTo(1 - cost, 6);
    const next = await fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(apiKey), body: chatBody({ max_tokens: 50 }) });
    expect(next.status).toBe(200);
    // The key works under /x402 too, as a keyed request.
    const prefixed = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', headers: keyed(apiKey), body: chatBody({ max_tokens: 50 }) });
    expect(prefixed.status).toBe(200);
    expect(prefixed.headers.get('X-Service-Api-Key')).toBeNull();

    // The same payment again: 402, no second account, nothing moved.
    const replay = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', headers: { 'PAYMENT-SIGNATURE': signature! }, body: chatBody({ max_tokens: 50 }) });
    expect(replay.status).toBe(402);
    expect(replay.headers.get('X-Service-Api-Key')).toBeNull();
    expect(await chain.balanceOf(payer.address)).toBe(2_000_000n);
  });

  it('/x402/v1/messages: an Anthropic error with the challenge, then the paid retry is served a Message and charged', async () => {
    const messagesBody = JSON.stringify({ model: 'anthropic/claude-haiku-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'Say hello' }] });
    const challenge = await fetch(`${stack.gateway.url}/x402/v1/messages`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: messagesBody });
    expect(challenge.status).toBe(402);
    expect(challenge.headers.get('PAYMENT-REQUIRED')).toBeTruthy();
    expect(await challenge.json()).toMatchObject({ type: 'error', error: { code: 'insufficient_credits' } });

    const payer = await wallet(2_000_000n);
    const pay = wrapFetchWithPaymentFromConfig(fetch, { schemes: [{ network: 'eip155:8453', client: new ExactEvmScheme(payer) }], spendControls: false });
    const res = await pay(`${stack.gateway.url}/x402/v1/messages`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: messagesBody });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'text' }] });
    const apiKey = res.headers.get('X-Service-Api-Key')!;
    const account = (await (await fetch(`${stack.gateway.url}/agent/account`, { headers: { 'x-api-key': apiKey } })).json()) as { balance_usd: string };
    expect(Number(account.balance_usd)).toBeCloseTo(1 - Number(res.headers.get('X-Service-Cost')), 6);
  });

  it('pays for a Responses request on /x402/v1/responses: served, charged and answered with a new key', async () => {
    const payer = await wallet(2_000_000n);
    const body = JSON.stringify({ model: 'openai/gpt-4o-mini', input: 'Say hello', max_output_tokens: 50, store: false });
    const challenge = await fetch(`${stack.gateway.url}/x402/v1/responses`, { method: 'POST', body });
    expect(challenge.status).toBe(402);
    expect(decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.amount).toBe('1000000');
    const res = await payingFetch(payer)(`${stack.gateway.url}/x402/v1/responses`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({ object: 'response', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hello from the simulator!' }] }] });
    const apiKey = res.headers.get('X-Service-Api-Key')!;
    const cost = Number(res.headers.get('X-Service-Cost'));
    expect(cost).toBeGreaterThan(0);
    const account = (await (await fetch(`${stack.gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { balance_usd: string };
    expect(Number(account.balance_usd)).toBeCloseTo(1 - cost, 6);
  });

  it('a keyless account is never charged past its hold (D33): an upstream that reports 1e308 prompt tokens leaves it above zero, the rest a loss row', async () => {
    const payer = await wallet(2_000_000n);
    const body = JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: '[reports-prompt-tokens=1e308] Say hello' }] });
    const res = await payingFetch(payer)(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect(res.status, await res.clone().text()).toBe(200);
    const accountId = res.headers.get('X-Service-Account-Id')!;
    const cost = Number(res.headers.get('X-Service-Cost'));
    const view = (await (await fetch(`${stack.gateway.url}/admin/accounts/${accountId}`, { headers: { Authorization: `Bearer ${STACK_ADMIN_TOKEN}` } })).json()) as {
      balance_usd: string;
      loss_usd: string;
      ledger: { kind: string; amount_usd: string }[];
    };
    const held = Number(view.ledger.find((row) => row.kind === 'hold')!.amount_usd);
    expect(cost).toBe(held);
    expect(Number(view.balance_usd)).toBeCloseTo(1 - held, 6);
    expect(Number(view.balance_usd)).toBeGreaterThan(0);
    // 10 million tokens (the most a report is believed for) at $0.15 per million and a few output tokens, less the hold.
    expect(Number(view.loss_usd)).toBeCloseTo(1.5 - held, 4);
  });

  it('limits failing keyless payments per IPv6 /64 to 20 an hour, before any chain call: then 429 with Retry-After, even for a good payment', { timeout: 60_000 }, async () => {
    const body = chatBody({ max_tokens: 50 });
    const challenge = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', body });
    const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
    const signed = async (payer: PrivateKeyAccount) => {
      const partial = await new ExactEvmScheme(payer).createPaymentPayload(2, required.accepts[0]!);
      return encodePaymentSignatureHeader({ ...partial, x402Version: 2, accepted: required.accepts[0]!, resource: required.resource } as PaymentPayload);
    };
    // A payer without the funds: verification (a simulation on chain) refuses it, every time.
    const unfunded = await signed(await wallet(0n));
    const attempt = (ip: string, payment: string) =>
      fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', headers: { 'PAYMENT-SIGNATURE': payment, 'CF-Connecting-IP': ip }, body });
    for (let i = 1; i <= 20; i++) expect((await attempt(`2001:db8:35:1::${i.toString(16)}`, unfunded)).status).toBe(402);
    const limited = await attempt('2001:db8:35:1:ffff::1', unfunded);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    // Refused before settlement: a good payment from that /64 moves nothing.
    const payer = await wallet(2_000_000n);
    expect((await attempt('2001:db8:35:1::abcd', await signed(payer))).status).toBe(429);
    expect(await chain.balanceOf(payer.address)).toBe(2_000_000n);
    // Another /64 is not limited.
    expect((await attempt('2001:db8:35:2::1', unfunded)).status).toBe(402);
  });

  it('limits failing payments with a key per IPv6 /64 the same way, since a free account costs nothing', { timeout: 60_000 }, async () => {
    const { apiKey } = await stack.fundedAccount('0');
    const challenge = await fetch(`${stack.gateway.url}/x402/v1/chat/completions`, { method: 'POST', body: chatBody({ max_tokens: 50 }) });
    const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
    const partial = await new ExactEvmScheme(await wallet(0n)).createPaymentPayload(2, required.accepts[0]!);
    const unfunded = encodePaymentSignatureHeader({ ...partial, x402Version: 2, accepted: required.accepts[0]!, resource: required.resource } as PaymentPayload);
    const attempt = (ip: string) =>
      fetch(`${stack.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(apiKey, { 'PAYMENT-SIGNATURE': unfunded, 'CF-Connecting-IP': ip }), body: chatBody({ max_tokens: 50 }) });
    for (let i = 1; i <= 20; i++) expect((await attempt(`2001:db8:36:1::${i.toString(16)}`)).status).toBe(402);
    const limited = await attempt('2001:db8:36:1:ffff::1');
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    expect((await attempt('2001:db8:36:2::1')).status).toBe(402);
  });

  it('a payment below the worst case is refused before it is settled: 402, no account', async () => {
    const payer = await wallet(5_000_000n);
    const body = JSON.stringify({ url: 'https://example.com/', limit: 500 });
    const challenge = await fetch(`${stack.gateway.url}/x402/v1/crawl`, { method: 'POST', body });
    const required = decodePaymentRequiredHeader(challenge.headers.get('PAYMENT-REQUIRED')!);
    const accepted = { ...required.accepts[0]!, amount: '1000000' };
    const partial = await new ExactEvmScheme(payer).createPaymentPayload(2, accepted);
    const payload = { ...partial, x402Version: 2, accepted, resource: required.resource } as PaymentPayload;
    const res = await fetch(`${stack.gateway.url}/x402/v1/crawl`, { method: 'POST', headers: { 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) }, body });
    expect(res.status).toBe(402);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/at least 2500000/);
    expect(res.headers.get('X-Service-Api-Key')).toBeNull();
    expect(await chain.balanceOf(payer.address)).toBe(5_000_000n);
  });
});

describe('x402 on scrape and images', () => {
  const scrapeBody = () => JSON.stringify({ url: `${site.url}/article` });
  const imageBody = () => JSON.stringify({ model: 'black-forest-labs/flux-1-schnell', prompt: 'a fox' });

  it.each([
    ['/v1/scrape', scrapeBody, (body: { content: string }) => expect(body.content).toContain('# Understanding Tables')],
    ['/v1/images/generations', imageBody, (body: { data: { url: string }[] }) => expect(body.data[0]!.url).toMatch(/^http/)],
  ])('keyed %s: paid, served and charged', async (path, body, check) => {
    const agent = await stack.fundedAccount('0');
    const payer = await wallet(2_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}${path}`, { method: 'POST', headers: keyed(agent.apiKey), body: body() });
    expect(res.status).toBe(200);
    check((await res.json()) as never);
    expect(res.headers.get('PAYMENT-RESPONSE')).toBeTruthy();
    const cost = Number(res.headers.get('X-Service-Cost'));
    expect(cost).toBeGreaterThan(0);
    expect(Number(await agent.balance())).toBeCloseTo(1 - cost, 6);
  });

  it.each([
    ['/v1/scrape', scrapeBody, (body: { content: string }) => expect(body.content).toContain('# Understanding Tables')],
    ['/v1/images/generations', imageBody, (body: { data: { url: string }[] }) => expect(body.data[0]!.url).toMatch(/^http/)],
  ])('keyless /x402%s: paid, served, and the new key holds the rest', async (path, body, check) => {
    const payer = await wallet(2_000_000n);
    const res = await payingFetch(payer)(`${stack.gateway.url}/x402${path}`, { method: 'POST', body: body() });
    expect(res.status).toBe(200);
    check((await res.json()) as never);
    const apiKey = res.headers.get('X-Service-Api-Key')!;
    const account = (await (await fetch(`${stack.gateway.url}/agent/account`, { headers: { Authorization: `Bearer ${apiKey}` } })).json()) as { balance_usd: string };
    expect(Number(account.balance_usd)).toBeCloseTo(1 - Number(res.headers.get('X-Service-Cost')), 6);
  });
});

describe('x402 through a facilitator (X402_FACILITATOR_URL)', () => {
  let facilitator: Upstream;
  let viaFacilitator: Stack;
  beforeAll(async () => {
    // The facilitator pays gas with dev account 7; the gateway holds no key.
    facilitator = await startX402Facilitator({ rpcUrl: chain.rpcUrl, chainId: chain.chainId, relayerKey: FACILITATOR_KEY });
    viaFacilitator = await startStack({
      BASE_RPC_URL: chain.rpcUrl,
      USDC_CONTRACT: chain.token,
      USDC_DEPOSIT_ADDRESS: depositAddress,
      X402_FACILITATOR_URL: facilitator.url,
    });
  }, 180_000);
  afterAll(async () => {
    await viaFacilitator?.stop();
    await facilitator?.stop();
  });

  it('verifies and settles through the facilitator, credits once, records the transfer from its receipt and serves the request', async () => {
    const agent = await viaFacilitator.fundedAccount('0');
    const payer = await wallet(2_000_000n);
    const res = await payingFetch(payer)(`${viaFacilitator.gateway.url}/v1/chat/completions`, { method: 'POST', headers: keyed(agent.apiKey), body: chatBody() });
    expect(res.status).toBe(200);
    const settled = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settled).toMatchObject({ success: true, payer: payer.address });
    // The facilitator answers no receipt: the gateway reads it, and the deposit is placed at its block.
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: settled.transaction as `0x${string}` });
    const view = (await (await fetch(`${viaFacilitator.gateway.url}/admin/accounts/${agent.accountId}`, { headers: { Authorization: `Bearer ${STACK_ADMIN_TOKEN}` } })).json()) as {
      funding: { deposits: { status: string; tx_hash: string; block_number: number }[] };
    };
    expect(view.funding.deposits).toEqual([expect.objectContaining({ status: 'credited', tx_hash: settled.transaction, block_number: Number(receipt.blockNumber) })]);
    expect(facilitator.requests.map((request) => request.path)).toEqual(['/verify', '/settle']);
    expect(await chain.balanceOf(payer.address)).toBe(1_000_000n);
    const balance = Number(await agent.balance());
    expect(balance).toBeGreaterThan(0.99);
    expect(balance).toBeLessThan(1);
  });
});
