import { describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/money';
import { adminCredit, call, expectError, json, register } from './helpers';
import { admin, createOrganization, join, send } from './org-helpers';

/**
 * Issue 35, item 4: an organization invite makes at most `max_uses` joins (default 1), counted in
 * the organization's Durable Object in the same step as the join, so one code cannot hand many
 * accounts a member cap each; and a member's quote shows only its own headroom.
 */

async function createInvite(organizationId: string, body: Record<string, unknown>): Promise<Response> {
  return call(`/admin/organizations/${organizationId}/invites`, json(body, admin));
}

async function inviteCode(organizationId: string, body: Record<string, unknown> = {}): Promise<{ invite_code: string; invite_id: string; uses: number; max_uses: number }> {
  const res = await createInvite(organizationId, body);
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function invites(organizationId: string): Promise<{ invite_id: string; uses: number; max_uses: number | null; revoked_at: string | null }[]> {
  const res = await call(`/admin/organizations/${organizationId}`, { headers: admin });
  expect(res.status).toBe(200);
  return ((await res.json()) as { invites: { invite_id: string; uses: number; max_uses: number | null; revoked_at: string | null }[] }).invites;
}

/** A registered account with a positive balance of its own. */
async function agent() {
  const registered = await register();
  expect((await adminCredit(registered.account_id, '1')).status).toBe(200);
  return registered;
}

describe('organization invites are counted (max_uses)', () => {
  it('joins one account by default; the next is refused exactly as with a revoked invite', async () => {
    const org = await createOrganization('fleet', '100');
    const invite = await inviteCode(org.organization_id, { auto_approve: true, member_cap_usd: '5.00' });
    expect(invite).toMatchObject({ uses: 0, max_uses: 1 });
    const first = await agent();
    expect((await join(first, invite.invite_code)).status).toBe(200);
    // The same member joining again is idempotent and uses nothing more.
    expect((await join(first, invite.invite_code)).status).toBe(200);

    const usedUp = await expectError(await join(await agent(), invite.invite_code), 404, 'not_found', 'invalid_request_error', 'invite_code');
    const revoked = await inviteCode(org.organization_id);
    expect((await call(`/admin/organizations/${org.organization_id}/invites/${revoked.invite_id}`, { method: 'DELETE', headers: admin })).status).toBe(200);
    const refused = await expectError(await join(await agent(), revoked.invite_code), 404, 'not_found', 'invalid_request_error', 'invite_code');
    expect(usedUp.error).toEqual(refused.error);

    expect((await invites(org.organization_id)).find((row) => row.invite_id === invite.invite_id)).toMatchObject({ uses: 1, max_uses: 1, revoked_at: null });
  });

  it('takes max_uses joins and lists how many were used', async () => {
    const org = await createOrganization('fleet', '100');
    const invite = await inviteCode(org.organization_id, { max_uses: 2 });
    expect((await join(await agent(), invite.invite_code)).status).toBe(200);
    expect((await join(await agent(), invite.invite_code)).status).toBe(200);
    await expectError(await join(await agent(), invite.invite_code), 404, 'not_found', 'invalid_request_error', 'invite_code');
    expect(await invites(org.organization_id)).toEqual([expect.objectContaining({ invite_id: invite.invite_id, uses: 2, max_uses: 2 })]);
  });

  it('lets only one of several joins racing for the last use win', async () => {
    const org = await createOrganization('fleet', '100');
    const invite = await inviteCode(org.organization_id, { auto_approve: true, max_uses: 1 });
    const agents = await Promise.all(Array.from({ length: 6 }, () => agent()));
    const answers = await Promise.all(agents.map((member) => join(member, invite.invite_code)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 404, 404, 404, 404, 404]);
    const members = ((await (await call(`/admin/organizations/${org.organization_id}`, { headers: admin })).json()) as { members: unknown[] }).members;
    expect(members).toHaveLength(1);
    expect((await invites(org.organization_id))[0]).toMatchObject({ uses: 1, max_uses: 1 });
  });

  it.each([
    ['zero', 0],
    ['a negative count', -1],
    ['a fraction', 1.5],
    ['a string', '2'],
    ['more than 1000', 1001],
    ['null', null],
  ])('refuses %s as max_uses with 400 naming it', async (_, maxUses) => {
    const org = await createOrganization('fleet');
    await expectError(await createInvite(org.organization_id, { max_uses: maxUses }), 400, 'invalid_request', 'invalid_request_error', 'max_uses');
  });
});

describe("a member's quote", () => {
  it("shows the member's own headroom, never the organization's whole available balance", async () => {
    const org = await createOrganization('fleet', '100');
    const invite = await inviteCode(org.organization_id, { auto_approve: true, member_cap_usd: '3.00' });
    const member = await agent();
    expect((await join(member, invite.invite_code)).status).toBe(200);
    // A quote that could spend $10 (1,000 records): the room shown is the cap's, not the $100.
    const scrape = { path: '/v1/extract', body: { scraper: 'contact-details', input: { url: 'https://example.com/' }, limit: 1000 } };
    expect(await (await send('/v1/quote', member.api_key, scrape)).json()).toMatchObject({ available_usd: formatUsd(3_000_000) });

    // A key with a smaller limit of its own: its room.
    const minted = await send('/agent/keys', member.api_key, { name: 'worker', limit_usd: '0.50' });
    expect(minted.status, await minted.clone().text()).toBe(201);
    const subKey = ((await minted.json()) as { api_key: string }).api_key;
    expect(await (await send('/v1/quote', subKey, scrape)).json()).toMatchObject({ available_usd: formatUsd(500_000) });
  });
});
