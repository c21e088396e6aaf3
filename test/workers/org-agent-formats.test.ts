import { inject, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/money';
import { createOrganization, eventually, gateway, invite, join, ledger, organization, send } from './org-helpers';
import { adminCredit, register } from './helpers';

/**
 * D29 in every chat format (D30): a member's Anthropic Messages and OpenAI Responses requests are
 * held against and charged to its organization, exactly as its Chat Completions are, whether the
 * format passes through (Claude on Messages, an OpenAI model on Responses) or is translated.
 */
const formats = {
  ...gateway,
  ANTHROPIC_API_KEY: 'sk-ant-orgs',
  ANTHROPIC_BASE_URL: `${inject('anthropicUpstreamUrl')}/v1`,
} as Env;

const REQUESTS: [string, string, Record<string, unknown>][] = [
  ['Messages on Claude (passed through)', '/v1/messages', { model: 'anthropic/claude-haiku-4-5', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }],
  ['Messages on an OpenAI model (translated)', '/v1/messages', { model: 'openai/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }],
  ['Responses on an OpenAI model (passed through)', '/v1/responses', { model: 'openai/gpt-4o-mini', input: 'Hi', max_output_tokens: 20, store: false }],
  ['Responses on Claude (translated)', '/v1/responses', { model: 'anthropic/claude-haiku-4-5', input: 'Hi', max_output_tokens: 20, store: false }],
];

describe("an organization member's agent formats", () => {
  it.each(REQUESTS)('%s: charged to the organization, the member untouched', async (_name, path, body) => {
    const org = await createOrganization('formats', '5');
    const member = await register();
    expect((await adminCredit(member.account_id, '1')).status).toBe(200);
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);

    const res = await send(path, member.api_key, body, formats);
    expect(res.status, await res.clone().text()).toBe(200);
    const cost = parseUsd(res.headers.get('x-service-cost')!)!;
    expect(cost).toBeGreaterThan(0);
    await eventually(async () => (await organization(org.organization_id)).balance_usd, formatUsd(5_000_000 - cost));
    const charge = (await ledger(org.organization_id)).find((row) => row.kind === 'charge')!;
    expect(charge).toMatchObject({ amount_usd: formatUsd(-cost), member_account_id: member.account_id });
    expect((await ledger(member.account_id)).some((row) => row.kind === 'charge')).toBe(false);
  });
});
