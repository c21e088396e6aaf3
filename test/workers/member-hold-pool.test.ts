import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { formatUsd, parseUsd } from '../../src/money';
import { REFILL_AT } from '../../durable-objects/account/org-hold-pool';
import { accountStub, call, expectError, json, register, type Registered } from './helpers';
import { admin, chat, createOrganization, eventually, invite, join, ledger, organization, send } from './org-helpers';

/**
 * D29's hold pool (durable-objects/account/org-hold-pool.ts): an organization places a few holds
 * ahead of a member's requests, so a member's chat waits for one Durable Object, as a plain
 * account's does. Through the public API: what reaches the organization, what is charged, what
 * goes back, and that the pool never refuses a request the organization would have served.
 */

interface OrgView {
  held_usd: string;
  holds: { hold_id: string; request_id: string | null; amount_usd: string }[];
  expired_unsettled_holds: number;
  durable_object_calls: { by_method: Record<string, number> };
}

async function orgView(organizationId: string): Promise<OrgView> {
  const res = await call(`/admin/accounts/${organizationId}`, { headers: admin });
  expect(res.status).toBe(200);
  return (await res.json()) as OrgView;
}

const pooledIn = (view: OrgView) => view.holds.filter((hold) => hold.request_id === null).length;

/** Waits until the organization holds at least `count` pooled holds (placed ahead, no request yet) for its member. */
async function poolFilled(organizationId: string, count: number): Promise<OrgView> {
  let view = await orgView(organizationId);
  for (let i = 0; i < 100 && pooledIn(view) < count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    view = await orgView(organizationId);
  }
  expect(pooledIn(view)).toBeGreaterThanOrEqual(count);
  return view;
}

async function member(creditUsd: string, body: { member_cap_usd?: string } = {}): Promise<{ organizationId: string; agent: Registered }> {
  const org = await createOrganization('pooled', creditUsd);
  const agent = await register();
  expect((await (await join(agent, await invite(org.organization_id, { auto_approve: true, ...body }))).json()) as { status: string }).toMatchObject({ status: 'active' });
  return { organizationId: org.organization_id, agent };
}

const costOf = (res: Response) => parseUsd(res.headers.get('x-service-cost')!)!;
const unusedReturns = async (organizationId: string) => (await ledger(organizationId)).filter((row) => row.kind === 'release' && (row as { note?: string }).note === 'unused').length;

describe("a member's hold pool", () => {
  it('serves chats after the first from holds placed ahead, with no call to the organization on the way, and charges each once with its request', async () => {
    const { organizationId, agent } = await member('5');
    const first = await chat(agent.api_key);
    expect(first.status).toBe(200);
    const before = await poolFilled(organizationId, 2);

    const next = [await chat(agent.api_key), await chat(agent.api_key)];
    expect(next.map((res) => res.status)).toEqual([200, 200]);
    const after = await orgView(organizationId);
    // Neither asked the organization for its hold: both were handed a pooled one by the member's object.
    expect((after.durable_object_calls.by_method.holdsForMember ?? 0) - (before.durable_object_calls.by_method.holdsForMember ?? 0)).toBe(0);

    const answers = [first, ...next];
    const total = answers.reduce((sum, res) => sum + costOf(res), 0);
    await eventually(async () => (await organization(organizationId)).balance_usd, formatUsd(5_000_000 - total));
    const rows = await ledger(organizationId);
    for (const res of answers) {
      // Each charge names its request (a pooled hold learns it at settlement), the member and its key.
      const charge = rows.find((row) => row.kind === 'charge' && row.request_id === res.headers.get('x-service-request-id'));
      expect(charge).toMatchObject({ member_account_id: agent.account_id, amount_usd: formatUsd(-costOf(res)) });
      expect(charge!.key_id).toMatch(/^key_/);
    }

    // Idle: the pool goes back (POOL_IDLE_MS), noted `unused`, and nobody counts it as a dead request.
    await eventually(async () => (await organization(organizationId)).held_usd, '0.000000', 500);
    expect(await unusedReturns(organizationId)).toBeGreaterThanOrEqual(1);
    expect((await orgView(organizationId)).expired_unsettled_holds).toBe(0);
    expect((await organization(organizationId)).balance_usd).toBe(formatUsd(5_000_000 - total));
  }, 20_000);

  it('asks the organization for a request larger than its pooled holds', async () => {
    const { organizationId, agent } = await member('5');
    expect((await chat(agent.api_key)).status).toBe(200);
    const before = await poolFilled(organizationId, 2);
    const large = await send('/v1/chat/completions', agent.api_key, { model: 'openai/gpt-4o-mini', max_tokens: 500, messages: [{ role: 'user', content: 'Hi' }] });
    expect(large.status).toBe(200);
    const after = await orgView(organizationId);
    expect((after.durable_object_calls.by_method.holdsForMember ?? 0) - (before.durable_object_calls.by_method.holdsForMember ?? 0)).toBe(1);
  });

  it('gives the pool back and asks again when a refusal may be its doing, so it never refuses what the organization would serve', async () => {
    // A cap of 0.1: after a first hold of 1,000 µ$ the pool keeps more of them aside (at most 1/8 of the room).
    const { organizationId, agent } = await member('1', { member_cap_usd: '0.100000' });
    const keyHash = await sha256Hex(agent.api_key);
    const stub = accountStub(agent.account_id);
    const small = { op: 'hold' as const, request: { keyHash, route: 'chat' as const, minMicros: 1_000, maxMicros: 1_000, purpose: 'chat:openai/gpt-4o-mini', ttlMs: 30_000, requestId: 'req_small' } };
    expect((await stub.apply([small])).results[0]).toMatchObject({ ok: true });
    const pooled = pooledIn(await poolFilled(organizationId, 2));
    expect((await organization(organizationId)).held_usd).toBe(formatUsd(1_000 + pooled * 1_000));

    // 98,500 fits the cap's room of 99,000 only without what the pool keeps aside.
    const large = { op: 'hold' as const, request: { keyHash, route: 'web' as const, minMicros: 98_500, maxMicros: 98_500, purpose: 'scrape', ttlMs: 30_000, requestId: 'req_large' } };
    const [held] = (await stub.apply([large])).results;
    expect(held).toMatchObject({ ok: true, amountMicros: 98_500 });
    expect((await organization(organizationId)).held_usd).toBe('0.099500');
    expect(await unusedReturns(organizationId)).toBe(pooled);
    // And a refusal the pool is not the cause of still refuses.
    const [refused] = (await stub.apply([{ ...large, request: { ...large.request, requestId: 'req_more', minMicros: 1_000, maxMicros: 1_000 } }])).results;
    expect(refused).toMatchObject({ ok: false, reason: 'member_cap_exceeded' });
  });

  it('gives the pool back at once when the member leaves', async () => {
    const { organizationId, agent } = await member('5');
    expect((await chat(agent.api_key)).status).toBe(200);
    const pooled = pooledIn(await poolFilled(organizationId, 2));
    expect((await send('/agent/org/leave', agent.api_key)).status).toBe(200);
    expect((await organization(organizationId)).held_usd).toBe('0.000000');
    expect(await unusedReturns(organizationId)).toBe(pooled);
  });

  it('lets a removed member spend no more of its pool than until a refill is refused and the rest goes back, then its own balance', async () => {
    const { organizationId, agent } = await member('5');
    expect((await chat(agent.api_key)).status).toBe(200);
    const pooled = pooledIn(await poolFilled(organizationId, 2));
    const balance = (await organization(organizationId)).balance_usd;
    const removed = await call(`/admin/organizations/${organizationId}/members/${agent.account_id}/remove`, { method: 'POST', headers: admin });
    expect(removed.status, await removed.clone().text()).toBe(200);

    const answers = [];
    for (let i = 0; i < pooled + 2; i++) answers.push(await chat(agent.api_key));
    const served = answers.filter((res) => res.status === 200);
    // Pooled holds were granted under the cap and balance while it was a member. Once REFILL_AT are
    // left, the refill is refused (not a member) and the rest go back; then its own (empty) balance.
    expect(served.length).toBeGreaterThanOrEqual(1);
    expect(served.length).toBeLessThanOrEqual(pooled - REFILL_AT + 1);
    for (const res of answers.slice(served.length)) await expectError(res, 402, 'insufficient_credits', 'insufficient_credits_error');
    const spent = served.reduce((sum, res) => sum + costOf(res), 0);
    await eventually(async () => (await organization(organizationId)).balance_usd, formatUsd(parseUsd(balance)! - spent));
    await eventually(async () => (await organization(organizationId)).held_usd, '0.000000');
  });

  it("stops handing out an organization's pooled holds once it is suspended: until the next refill, then 403 and the rest given back", async () => {
    const { organizationId, agent } = await member('5');
    expect((await chat(agent.api_key)).status).toBe(200);
    const pooled = pooledIn(await poolFilled(organizationId, 2));
    const suspended = await call(`/admin/accounts/${organizationId}/suspend`, json({ reason: 'card dispute' }, admin));
    expect(suspended.status, await suspended.clone().text()).toBe(200);

    const answers = [];
    for (let i = 0; i < pooled + 2; i++) answers.push(await chat(agent.api_key));
    const served = answers.filter((res) => res.status === 200);
    // A refill asks the organization once REFILL_AT are left; suspended, it refuses, and the rest goes back.
    expect(served.length).toBeLessThanOrEqual(pooled - REFILL_AT + 1);
    for (const res of answers.slice(served.length)) await expectError(res, 403, 'account_suspended', 'authorization_error');
    await eventually(async () => (await organization(organizationId)).held_usd, '0.000000');
  });
});
