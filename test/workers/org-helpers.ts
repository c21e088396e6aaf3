import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { expect, inject } from 'vitest';
import { createApp } from '../../src/app';
import { ADMIN_TOKEN, adminCredit, call, json, type Registered } from './helpers';

// D29's tests (organizations.test.ts, member-hold-pool.test.ts): the gateway with a chat upstream,
// and the operator's and a member's calls through the public API.

export const app = createApp();

export const gateway = { ...env, OPENAI_API_KEY: 'sk-orgs', OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1` } as Env;

export const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };

/** A request through the app with upstreams configured; the whole answer read and its waitUntil work done. */
export async function send(path: string, apiKey: string, body?: unknown, target: Env = gateway): Promise<Response> {
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

export const chat = (apiKey: string) => send('/v1/chat/completions', apiKey, { model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] });

export async function createOrganization(name = 'fleet', creditUsd?: string): Promise<{ organization_id: string; name: string; fund_url: string }> {
  const res = await call('/admin/organizations', json({ name }, admin));
  expect(res.status, await res.clone().text()).toBe(201);
  const org = (await res.json()) as { organization_id: string; name: string; fund_url: string };
  if (creditUsd) expect((await adminCredit(org.organization_id, creditUsd)).status).toBe(200);
  return org;
}

export async function invite(organizationId: string, body: { member_cap_usd?: string; auto_approve?: boolean; max_uses?: number } = {}): Promise<string> {
  const res = await call(`/admin/organizations/${organizationId}/invites`, json(body, admin));
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { invite_code: string }).invite_code;
}

export async function join(agent: Registered, code: string): Promise<Response> {
  return send('/agent/org/join', agent.api_key, { invite_code: code });
}

export async function organization(organizationId: string) {
  const res = await call(`/admin/organizations/${organizationId}`, { headers: admin });
  expect(res.status).toBe(200);
  return (await res.json()) as { balance_usd: string; held_usd: string; members: { account_id: string; status: string; spent_this_month_usd: string }[] };
}

export async function ledger(accountId: string) {
  const res = await call(`/admin/accounts/${accountId}/ledger?limit=500`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { kind: string; amount_usd: string; key_id: string | null; member_account_id?: string; request_id: string | null; hold_id: string | null }[] }).data;
}

/** A settlement may go through the settlement journal (a far account), which forwards it a moment later. */
export async function eventually<T>(read: () => Promise<T>, expected: T, tries = 50): Promise<void> {
  for (let i = 0; i < tries && JSON.stringify(await read()) !== JSON.stringify(expected); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(await read()).toEqual(expected);
}
