import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_ADMIN_TOKEN, startStack, type Stack } from './stack';

/**
 * D33 with the official `openai` SDK against the gateway started as the README says: a request is
 * never charged more than its hold, whatever the prompt or the upstream's usage report.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);
const MODEL = 'openai/gpt-4o-mini';

async function client(usd: string) {
  const account = await stack.fundedAccount(usd);
  return { ...account, openai: new OpenAI({ apiKey: account.apiKey, baseURL: `${stack.gateway.url}/v1`, maxRetries: 0 }) };
}

async function adminAccount(accountId: string) {
  const res = await fetch(`${stack.gateway.url}/admin/accounts/${accountId}`, { headers: { Authorization: `Bearer ${STACK_ADMIN_TOKEN}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as { balance_usd: string; held_usd: string; loss_usd: string; ledger: { kind: string; amount_usd: string }[] };
}

describe('a hold bounds its charge (D33), with the openai SDK', () => {
  it('refuses with 402 a prompt of 40,000 control characters on a $0.002 account, which it overspent before', async () => {
    const { openai, accountId } = await client('0.002');
    const attempt = openai.chat.completions.create({ model: MODEL, max_tokens: 1, messages: [{ role: 'user', content: '\u0001'.repeat(40_000) }] });
    await expect(attempt).rejects.toMatchObject({ status: 402, error: { code: 'insufficient_credits' } });
    expect(await adminAccount(accountId)).toMatchObject({ balance_usd: '0.002000', held_usd: '0.000000' });
  });

  it.each([false, true])('charges an upstream that reports 100,000 prompt tokens at most the hold, the rest a loss row (stream: %s)', async (stream) => {
    const { openai, accountId } = await client('2');
    const content = '[reports-prompt-tokens=100000] Hi';
    let stated: number;
    if (stream) {
      const chunks = await openai.chat.completions.create({ model: MODEL, max_tokens: 1, stream: true, messages: [{ role: 'user', content }] });
      let last: unknown;
      for await (const chunk of chunks) last = chunk;
      stated = micros((last as { x_service: { cost_usd: string } }).x_service.cost_usd);
    } else {
      const { response } = await openai.chat.completions.create({ model: MODEL, max_tokens: 1, messages: [{ role: 'user', content }] }).withResponse();
      stated = micros(response.headers.get('x-service-cost')!);
    }
    const view = await adminAccount(accountId);
    const held = micros(view.ledger.find((row) => row.kind === 'hold')!.amount_usd);
    expect(stated).toBe(held);
    expect(micros(view.balance_usd)).toBe(2_000_000 - held);
    // 100,000 prompt tokens at $0.15 per million: $0.015, far beyond a hold of a few prompt tokens and one output token.
    expect(micros(view.loss_usd)).toBeGreaterThan(14_000);
    expect(view.ledger.some((row) => row.kind === 'loss')).toBe(true);
  });

  it('refuses service_tier "priority" with 400 naming it, before any money moves', async () => {
    const { openai, accountId } = await client('1');
    const attempt = openai.chat.completions.create({ model: MODEL, service_tier: 'priority', messages: [{ role: 'user', content: 'Hi' }] });
    await expect(attempt).rejects.toMatchObject({ status: 400, param: 'service_tier' });
    expect((await adminAccount(accountId)).balance_usd).toBe('1.000000');
  });
});
