import { describe, expect, it } from 'vitest';
import { MAX_REPORTED_TOKENS } from '../../src/products/chat/usage';
import { formatUsd, parseUsd } from '../../src/money';
import { ADMIN_TOKEN, adminCredit, call, expectError, register } from './helpers';
import { admin, createOrganization, invite, join, ledger, send } from './org-helpers';

/**
 * D33 through the public API: a request's hold is an upper bound of its charge. The prompt is
 * held at one token per UTF-8 byte of what the upstream receives, members an upstream bills
 * beyond text are refused, and what an upstream bills beyond the hold (a lying usage report) is
 * the operator's `loss` row, never the account's debt. Each attack here overspent before.
 */
const MODEL = 'openai/gpt-4o-mini'; // $0.15 in, $0.60 out per million tokens

async function funded(usd: string) {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function balanceMicros(accountId: string): Promise<number> {
  const res = await call(`/admin/accounts/${accountId}`, { headers: admin });
  const body = (await res.json()) as { balance_usd: string; held_usd: string; loss_usd: string };
  expect(body.held_usd).toBe('0.000000');
  return parseUsd(body.balance_usd)!;
}

const chatBody = (content: string, extra: Record<string, unknown> = {}) => ({ model: MODEL, max_tokens: 1, messages: [{ role: 'user', content }], ...extra });

/** What `POST /v1/quote` says a chat body would hold, in micro-dollars. */
async function worstCase(apiKey: string, body: unknown): Promise<number> {
  const res = await send('/v1/quote', apiKey, { path: '/v1/chat/completions', body });
  expect(res.status, await res.clone().text()).toBe(200);
  return parseUsd(((await res.json()) as { worst_case_usd: string }).worst_case_usd)!;
}

describe('the prompt is held at its upper bound (D33)', () => {
  it('refuses with 402 a prompt of 40,000 control characters that a $0.002 account cannot cover, where it overspent before', async () => {
    const agent = await funded('0.002');
    // 40,000 bytes at $0.15 per million tokens is $0.006: more than the balance.
    const res = await send('/v1/chat/completions', agent.api_key, chatBody('\u0001'.repeat(40_000)));
    await expectError(res, 402, 'insufficient_credits', 'insufficient_credits_error');
    expect(await balanceMicros(agent.account_id)).toBe(2_000);
  });

  it('holds every UTF-8 byte: a prompt of 3-byte characters is held at three tokens each', async () => {
    const agent = await funded('1');
    // 20,000 CJK characters: 60,000 bytes. At 4 characters a token the hold was 5,000 tokens.
    // At least 60,000 prompt tokens at $0.15 per million: $0.009, plus one output token.
    expect(await worstCase(agent.api_key, chatBody('字'.repeat(20_000)))).toBeGreaterThanOrEqual(9_000);
  });

  it('counts members other than the messages (tools, unknown members) in the bound', async () => {
    const agent = await funded('1');
    const quote = (extra: Record<string, unknown>) => worstCase(agent.api_key, chatBody('Hi', extra));
    const bare = await quote({});
    const description = 'x'.repeat(100_000);
    const withTools = await quote({ tools: [{ type: 'function', function: { name: 'look', description, parameters: { type: 'object' } } }] });
    // 100,000 bytes of tool description at $0.15 per million tokens: at least $0.015 more.
    expect(withTools - bare).toBeGreaterThanOrEqual(15_000);
  });

  it("refuses a prompt beyond the model's context length with 400 naming messages", async () => {
    const agent = await funded('5');
    const res = await send('/v1/chat/completions', agent.api_key, chatBody('word '.repeat(120_000)));
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'messages');
    expect(await balanceMicros(agent.account_id)).toBe(5_000_000);
  });

  it('holds a prediction as output beyond max_tokens, since rejected prediction tokens are billed as output', async () => {
    const agent = await funded('1');
    const quote = (extra: Record<string, unknown>) => worstCase(agent.api_key, chatBody('Hi', extra));
    const bare = await quote({});
    const predicted = await quote({ prediction: { type: 'content', content: 'y'.repeat(50_000) } });
    // 50,000 output tokens at $0.60 per million: $0.03 more.
    expect(predicted - bare).toBeGreaterThanOrEqual(30_000);
  });
});

describe('members an upstream bills beyond text are refused (D33)', () => {
  it.each([
    ['service_tier', { service_tier: 'priority' }],
    ['service_tier', { service_tier: 'flex' }],
    ['store', { store: true }],
    ['audio', { audio: { voice: 'alloy', format: 'mp3' } }],
    ['modalities', { modalities: ['text', 'audio'] }],
    ['web_search_options', { web_search_options: {} }],
  ])('400 naming %s for %j, nothing held or charged', async (param, extra) => {
    const agent = await funded('1');
    const res = await send('/v1/chat/completions', agent.api_key, chatBody('Hi', extra));
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', param);
    expect(await balanceMicros(agent.account_id)).toBe(1_000_000);
  });

  it('runs their unbilled values, and announces a member no upstream is known to take instead of passing it on', async () => {
    const agent = await funded('1');
    const res = await send('/v1/chat/completions', agent.api_key, chatBody('Hi', { service_tier: 'default', store: false, modalities: ['text'], made_up_member: 1 }));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('x-service-unsupported-params')).toBe('made_up_member');
  });
});

describe('an upstream that reports more than the hold allows', () => {
  it.each([['100000'], ['1e308']])('is charged at most the hold when it reports %s prompt tokens; the rest is a loss row the operator sees', async (reported) => {
    const agent = await funded('2');
    const res = await send('/v1/chat/completions', agent.api_key, chatBody(`[reports-prompt-tokens=${reported}] Hi`));
    expect(res.status, await res.clone().text()).toBe(200);
    const stated = parseUsd(res.headers.get('x-service-cost')!)!;
    const rows = await ledger(agent.account_id);
    const held = parseUsd(rows.find((row) => row.kind === 'hold')!.amount_usd)!;
    expect(stated).toBe(held);
    expect(await balanceMicros(agent.account_id)).toBe(2_000_000 - held);
    expect(res.headers.get('x-service-credits-remaining')).toBe(formatUsd(2_000_000 - held));

    // The answer states the usage as reported (whole, at most MAX_REPORTED_TOKENS), priced at the catalog's prices.
    const { usage } = (await res.json()) as { usage: { prompt_tokens: number; completion_tokens: number } };
    expect(usage.prompt_tokens).toBe(Math.min(Number(reported), MAX_REPORTED_TOKENS));
    const billed = Math.round(usage.prompt_tokens * 0.15 + usage.completion_tokens * 0.6);
    const loss = rows.find((row) => row.kind === 'loss')!;
    expect(parseUsd(loss.amount_usd)).toBe(billed - held);
    const view = (await (await call(`/admin/accounts/${agent.account_id}`, { headers: admin })).json()) as { loss_usd: string };
    expect(view.loss_usd).toBe(formatUsd(billed - held));
  });

  it('never passes a streamed request past its hold either', async () => {
    const agent = await funded('2');
    const res = await send('/v1/chat/completions', agent.api_key, chatBody('[reports-prompt-tokens=100000] Hi', { stream: true }));
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const held = parseUsd((await ledger(agent.account_id)).find((row) => row.kind === 'hold')!.amount_usd)!;
    expect(text).toContain(`"cost_usd":"${formatUsd(held)}"`);
    expect(await balanceMicros(agent.account_id)).toBe(2_000_000 - held);
  });
});

describe('limits that an underestimated hold used to pass', () => {
  it("keeps 60 concurrent chats on a $0.0002 sub-key within the sub-key's limit", async () => {
    const agent = await funded('1');
    const minted = await send('/agent/keys', agent.api_key, { name: 'tight', limit_usd: '0.0002' });
    expect(minted.status, await minted.clone().text()).toBe(201);
    const { api_key } = (await minted.json()) as { api_key: string };
    const answers = await Promise.all(Array.from({ length: 60 }, () => send('/v1/chat/completions', api_key, chatBody('Tell me something. '.repeat(20)))));
    const served = answers.filter((res) => res.status === 200).length;
    expect(served).toBeGreaterThan(0);
    const spent = 1_000_000 - (await balanceMicros(agent.account_id));
    expect(spent).toBeLessThanOrEqual(200);
  });

  it("keeps a member with a $0.002 monthly cap within its cap and the organization's balance above zero", async () => {
    const org = await createOrganization('bounded', '0.01');
    const code = await invite(org.organization_id, { member_cap_usd: '0.002', auto_approve: true });
    const member = await register();
    expect((await join(member, code)).status).toBe(200);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await send('/v1/chat/completions', member.api_key, chatBody('\u0001'.repeat(4_000))));
    expect(answers.some((res) => res.status === 402)).toBe(true);
    const res = await call(`/admin/organizations/${org.organization_id}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    const body = (await res.json()) as { balance_usd: string; members: { spent_this_month_usd: string }[] };
    expect(parseUsd(body.members[0]!.spent_this_month_usd)!).toBeLessThanOrEqual(2_000);
    expect(parseUsd(body.balance_usd)!).toBeGreaterThanOrEqual(8_000);
  });
});
