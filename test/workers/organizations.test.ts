import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { formatUsd, parseUsd } from '../../src/money';
import { ADMIN_TOKEN, adminCredit, bearer, call, expectError, json, register, type Registered } from './helpers';

/**
 * D29 through the public API: the operator makes an organization and invites; member accounts
 * join (pending or active), spend the organization's balance within their monthly caps (the
 * organization's Durable Object serializes every member), see it in `GET /agent/account`, and
 * leave, after which they spend their own balance again.
 */

const app = createApp();
const gateway = { ...env, OPENAI_API_KEY: 'sk-orgs', OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1` } as Env;
const webEnv = { ...gateway, WEB_ALLOW_PRIVATE_HOSTS: new URL(inject('websiteUrl')).host } as Env;
const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** A request through the app with upstreams configured; the whole answer read and its waitUntil work done. */
async function send(path: string, apiKey: string, body?: unknown, target: Env = gateway): Promise<Response> {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, { method: body === undefined && !path.startsWith('/agent/org/') ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body) }),
    target,
    ctx,
  );
  await res.clone().arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

const chat = (apiKey: string) => send('/v1/chat/completions', apiKey, { model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] });

async function createOrganization(name = 'fleet', creditUsd?: string): Promise<{ organization_id: string; name: string; fund_url: string }> {
  const res = await call('/admin/organizations', json({ name }, admin));
  expect(res.status, await res.clone().text()).toBe(201);
  const org = (await res.json()) as { organization_id: string; name: string; fund_url: string };
  if (creditUsd) expect((await adminCredit(org.organization_id, creditUsd)).status).toBe(200);
  return org;
}

async function invite(organizationId: string, body: { member_cap_usd?: string; auto_approve?: boolean } = {}): Promise<string> {
  const res = await call(`/admin/organizations/${organizationId}/invites`, json(body, admin));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { invite_code: string }).invite_code;
}

async function join(agent: Registered, code: string): Promise<Response> {
  return send('/agent/org/join', agent.api_key, { invite_code: code });
}

async function funded(usd = '1'): Promise<Registered> {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function agentAccount(agent: Registered) {
  const res = await send('/agent/account', agent.api_key);
  expect(res.status).toBe(200);
  return (await res.json()) as { balance_usd: string; organization?: { id: string; name: string; status: string; member_cap_usd: string | null; spent_this_month_usd: string } };
}

async function organization(organizationId: string) {
  const res = await call(`/admin/organizations/${organizationId}`, { headers: admin });
  expect(res.status).toBe(200);
  return (await res.json()) as { balance_usd: string; held_usd: string; members: { account_id: string; status: string; spent_this_month_usd: string }[] };
}

async function ledger(accountId: string) {
  const res = await call(`/admin/accounts/${accountId}/ledger?limit=500`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { kind: string; amount_usd: string; key_id: string | null; member_account_id?: string; request_id: string | null; hold_id: string | null }[] }).data;
}

/** A settlement may go through the settlement journal (a far account), which forwards it a moment later. */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  for (let i = 0; i < 50 && JSON.stringify(await read()) !== JSON.stringify(expected); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await read()).toEqual(expected);
}

async function keyIdOf(agent: Registered): Promise<string> {
  const res = await send('/agent/keys', agent.api_key);
  return ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
}

describe('an organization and its members', () => {
  it('charges an approved member\'s requests to the organization, and the member\'s own balance again after it leaves', async () => {
    const org = await createOrganization('research', '5');
    expect(org.fund_url).toMatch(/\/fund\//);
    const code = await invite(org.organization_id, { member_cap_usd: '2.00' });
    expect(code).toMatch(/^inv-[0-9A-Za-z]{54}$/);
    const member = await funded('1');
    const ownBalance = (await agentAccount(member)).balance_usd;

    const joined = await join(member, code);
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ organization_id: org.organization_id, status: 'pending' });
    expect((await agentAccount(member)).organization).toEqual({ id: org.organization_id, name: 'research', status: 'pending', member_cap_usd: '2.000000', spent_this_month_usd: '0.000000' });

    // Pending: refused, nothing held anywhere.
    await expectError(await chat(member.api_key), 403, 'membership_pending', 'authorization_error');
    expect((await organization(org.organization_id)).held_usd).toBe('0.000000');
    expect((await agentAccount(member)).balance_usd).toBe(ownBalance);

    const approved = await call(`/admin/organizations/${org.organization_id}/members/${member.account_id}/approve`, { method: 'POST', headers: admin });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ account_id: member.account_id, status: 'active' });

    const served = await chat(member.api_key);
    expect(served.status, await served.clone().text()).toBe(200);
    const cost = served.headers.get('x-service-cost')!;
    const requestId = served.headers.get('x-service-request-id')!;
    expect(parseUsd(cost)).toBeGreaterThan(0);
    // The organization paid; the member's own balance is untouched.
    await eventually(async () => (await organization(org.organization_id)).balance_usd, formatUsd(5_000_000 - parseUsd(cost)!));
    expect((await agentAccount(member)).balance_usd).toBe(ownBalance);
    const charge = (await ledger(org.organization_id)).find((row) => row.kind === 'charge')!;
    expect(charge).toMatchObject({ amount_usd: formatUsd(-parseUsd(cost)!), member_account_id: member.account_id, key_id: await keyIdOf(member), request_id: requestId });
    expect(charge.hold_id).toMatch(/^oh_/);
    // The member finds its request; the organization's block counts its spend.
    const found = await send(`/v1/requests/${requestId}`, member.api_key);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ id: requestId, status: 'succeeded', cost_usd: cost });
    expect((await agentAccount(member)).organization).toMatchObject({ status: 'active', spent_this_month_usd: cost });

    const left = await send('/agent/org/leave', member.api_key);
    expect(left.status).toBe(200);
    expect(await left.json()).toEqual({ organization_id: org.organization_id, status: 'left' });
    expect((await agentAccount(member)).organization).toBeUndefined();
    const orgBalance = (await organization(org.organization_id)).balance_usd;

    const own = await chat(member.api_key);
    expect(own.status).toBe(200);
    await eventually(async () => (await agentAccount(member)).balance_usd, formatUsd(parseUsd(ownBalance)! - parseUsd(own.headers.get('x-service-cost')!)!));
    expect((await organization(org.organization_id)).balance_usd).toBe(orgBalance);
    expect((await organization(org.organization_id)).members).toMatchObject([{ account_id: member.account_id, status: 'left', spent_this_month_usd: cost }]);
    // Its request made in the organization is still found after leaving.
    expect((await send(`/v1/requests/${requestId}`, member.api_key)).status).toBe(200);
  });

  it('activates a member at once with an auto-approving invite, and a second join is the same membership', async () => {
    const org = await createOrganization('fleet', '1');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await register();
    expect(await (await join(member, code)).json()).toEqual({ organization_id: org.organization_id, status: 'active' });
    expect(await (await join(member, code)).json()).toEqual({ organization_id: org.organization_id, status: 'active' });
    expect((await organization(org.organization_id)).members).toHaveLength(1);
    // Its own balance may be empty: the organization pays.
    expect((await chat(member.api_key)).status).toBe(200);
  });

  it('answers 402 insufficient_org_credits with the organization\'s fund link, never the member\'s', async () => {
    const org = await createOrganization('empty');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await funded('1');
    await join(member, code);
    const body = await expectError(await chat(member.api_key), 402, 'insufficient_org_credits', 'insufficient_credits_error');
    const funding = (body.error as unknown as { funding: { fund_url: string; organization_id: string; x402: boolean; usdc: unknown; available_usd: string } }).funding;
    expect(funding).toMatchObject({ fund_url: org.fund_url, organization_id: org.organization_id, x402: false, usdc: null, available_usd: '0.000000' });
    expect(body.error.message).toContain(org.organization_id);
  });

  it('answers 402 member_cap_exceeded when the member\'s monthly cap cannot cover the request', async () => {
    const org = await createOrganization('capped', '5');
    const code = await invite(org.organization_id, { auto_approve: true, member_cap_usd: '0.000001' });
    const member = await funded('1');
    await join(member, code);
    const res = await chat(member.api_key);
    await expectError(res, 402, 'member_cap_exceeded', 'insufficient_credits_error');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('still enforces a member key\'s own spend limit, counting what it spent in the organization', async () => {
    const org = await createOrganization('limits', '5');
    const code = await invite(org.organization_id, { auto_approve: true });
    const member = await funded('1');
    await join(member, code);
    // A key of the member limited to less than one request's worst case: refused as today.
    const minted = await send('/agent/keys', member.api_key, { name: 'tight', limit_usd: '0.000001' });
    expect(minted.status).toBe(201);
    const tight = ((await minted.json()) as { api_key: string }).api_key;
    await expectError(await chat(tight), 429, 'credit_limit_exceeded', 'rate_limit_error');
  });
});
