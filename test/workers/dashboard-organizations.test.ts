import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AccountClient } from '../../src/accounts/account-client';
import { sha256Hex } from '../../src/accounts/credentials';
import { signedInOwner, type Owner } from './dashboard-helpers';
import { accountStub, adminCredit, call, json, register, type Registered } from './helpers';

/**
 * D29 in the dashboard: a claimed account's human makes an organization it owns, funds it, invites
 * agents, approves or refuses them, revokes invites and reads each member's spend. Only the owner's
 * session sees or acts on it: any other account gets 404 and changes nothing; every post needs the
 * page's CSRF token.
 */

const ORG_PATH = /^\/dashboard\/organizations\/([0-9a-f-]{36})\?created$/;

/** A signed-in human whose account is claimed (a session exists only for one in production). */
async function claimedOwner(): Promise<Owner> {
  const owner = await signedInOwner('1');
  expect(await accountStub(owner.agent.account_id).markClaimed(Date.now())).not.toBeNull();
  return owner;
}

async function createOrganization(owner: Owner, name = 'fleet'): Promise<string> {
  await owner.visitor.get('/dashboard/organizations');
  const { res } = await owner.visitor.post('/dashboard/organizations', { name });
  expect(res.status).toBe(303);
  const id = ORG_PATH.exec(res.headers.get('Location')!)?.[1];
  expect(id).toBeDefined();
  return id!;
}

/** The code a created-invite answer shows once. */
const shownInvite = (html: string) => /id="new-invite"[^>]*>\s*([^<\s]+)\s*</.exec(html)?.[1];

async function createInvite(owner: Owner, organizationId: string, fields: Record<string, string> = {}): Promise<string> {
  const { res, html } = await owner.visitor.post(`/dashboard/organizations/${organizationId}/invites`, fields);
  expect(res.status, html).toBe(200);
  expect(res.headers.get('Cache-Control')).toBe('no-store');
  return shownInvite(html)!;
}

function join(agent: Registered, code: string): Promise<Response> {
  return call('/agent/org/join', json({ invite_code: code }, { Authorization: `Bearer ${agent.api_key}` }));
}

/** A billed request of `agent`, as the chat route makes it: a hold, settled by the client that finds the hold's owner (the organization, for a member). */
async function charge(agent: Registered, micros: number): Promise<void> {
  const hold = await accountStub(agent.account_id).authorizeHold({ keyHash: await sha256Hex(agent.api_key), minMicros: micros, maxMicros: micros, purpose: 'chat:openai/gpt-4o-mini' });
  if (!hold.ok) throw new Error(`hold refused: ${hold.reason}`);
  expect(await new AccountClient(env, agent.account_id).settle(hold.holdId, micros)).toMatchObject({ ok: true });
}

const inviteIds = (html: string) => [...html.matchAll(/data-invite-id="(inv_[A-Za-z0-9]{20})"/g)].map((match) => match[1]!);

describe('an organization in its owner’s dashboard', () => {
  it('is made by a claimed human, funded, joins a pending member who is approved in the page, and shows that member’s spend', async () => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner, 'Research fleet');
    const page = await owner.visitor.get(`/dashboard/organizations/${orgId}?created`);
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('Organization created.');
    expect(page.html).toContain('Research fleet');
    expect(page.html).toMatch(/id="org-fund-url"[^>]*>https:\/\/gateway\.test\/fund\/[A-Za-z0-9]{32}</);
    // Listed for its owner; an organization, owned, claimed (no unclaimed card cap), never expiring.
    expect((await owner.visitor.get('/dashboard/organizations')).html).toContain(`href="/dashboard/organizations/${orgId}"`);
    expect(await accountStub(orgId).view()).toMatchObject({ kind: 'organization', name: 'Research fleet', expiresAt: null, unclaimedFundingRemainingMicros: null });
    expect((await adminCredit(orgId, '2')).status).toBe(200);

    const code = await createInvite(owner, orgId, { member_cap_usd: '1.50' });
    expect(code).toBeDefined();
    // The code is on that answer only.
    const after = await owner.visitor.get(`/dashboard/organizations/${orgId}`);
    expect(after.html).not.toContain(code);
    expect(after.html).toContain('$1.50 a month');

    const member = await register();
    expect((await adminCredit(member.account_id, '1')).status).toBe(200);
    const joined = await join(member, code);
    expect(await joined.json()).toEqual({ organization_id: orgId, status: 'pending' });
    const pending = await owner.visitor.get(`/dashboard/organizations/${orgId}`);
    expect(pending.html).toMatch(new RegExp(`id="pending"[\\s\\S]*data-account-id="${member.account_id}"`));
    await expect(charge(member, 1000)).rejects.toThrow('membership_pending');

    const approved = await owner.visitor.post(`/dashboard/organizations/${orgId}/members/${member.account_id}/approve`, {});
    expect(approved.res.status).toBe(303);
    expect(approved.res.headers.get('Location')).toBe(`/dashboard/organizations/${orgId}?approved`);

    // Its requests now spend the organization's balance, not its own.
    await charge(member, 1234);
    expect((await accountStub(orgId).view())!.balanceMicros).toBe(2_000_000 - 1234);
    expect((await accountStub(member.account_id).view())!.balanceMicros).toBe(1_000_000);
    const shown = await owner.visitor.get(approved.res.headers.get('Location')!);
    expect(shown.html).toContain('Member approved');
    expect(shown.html).toMatch(new RegExp(`id="members"[\\s\\S]*data-account-id="${member.account_id}"[\\s\\S]*badge active[\\s\\S]*\\$0\\.001234`));
    const today = new Date().toISOString().slice(0, 10);
    expect(shown.html).toContain(`data-model="${member.account_id.slice(0, 8)}" data-day="${today}"`);
    expect(shown.html).toContain('Spend per day by member, last 30 days (UTC)');
    expect(shown.html).toContain('id="org-balance">$2.00<');

    // Removed: its next request spends its own balance again.
    const removed = await owner.visitor.post(`/dashboard/organizations/${orgId}/members/${member.account_id}/remove`, {});
    expect(removed.res.headers.get('Location')).toBe(`/dashboard/organizations/${orgId}?removed`);
    await charge(member, 10);
    expect((await accountStub(member.account_id).view())!.balanceMicros).toBe(1_000_000 - 10);
  });

  it('refuses a pending member, and an invite revoked in the page joins nobody', async () => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner);
    const code = await createInvite(owner, orgId);
    const asker = await register();
    expect((await join(asker, code)).status).toBe(200);
    const refused = await owner.visitor.post(`/dashboard/organizations/${orgId}/members/${asker.account_id}/remove`, {});
    expect(refused.res.headers.get('Location')).toBe(`/dashboard/organizations/${orgId}?refused`);
    expect((await accountStub(orgId).organizationMembers())!.map((m) => [m.accountId, m.status])).toEqual([[asker.account_id, 'refused']]);

    const [inviteId] = inviteIds((await owner.visitor.get(`/dashboard/organizations/${orgId}`)).html);
    const revoked = await owner.visitor.post(`/dashboard/organizations/${orgId}/invites/${inviteId}/revoke`, {});
    expect(revoked.res.headers.get('Location')).toBe(`/dashboard/organizations/${orgId}?revoked`);
    expect((await owner.visitor.get(revoked.res.headers.get('Location')!)).html).toContain('badge revoked');
    expect((await join(await register(), code)).status).toBe(404);
  });

  it('sends back an invite form with a bad cap (400) and makes no invite', async () => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner);
    const { res, html } = await owner.visitor.post(`/dashboard/organizations/${orgId}/invites`, { member_cap_usd: 'lots', auto_approve: '1' });
    expect(res.status).toBe(400);
    expect(html).toContain('Enter the monthly cap in USD');
    expect(html).toContain('value="lots"');
    expect(shownInvite(html)).toBeUndefined();
    expect(inviteIds(html)).toEqual([]);
  });

  it('makes an invite for the number of agents asked (1 by default), lists its uses and refuses a bad count (400)', async () => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner);
    for (const bad of ['0', '1001', 'many']) {
      const { res, html } = await owner.visitor.post(`/dashboard/organizations/${orgId}/invites`, { max_uses: bad });
      expect(res.status).toBe(400);
      expect(html).toContain('Enter how many agents may join with it, 1 to 1000.');
    }
    const code = await createInvite(owner, orgId, { max_uses: '2' });
    expect((await join(await register(), code)).status).toBe(200);
    expect((await owner.visitor.get(`/dashboard/organizations/${orgId}`)).html).toContain('1 of 2');
    expect((await join(await register(), code)).status).toBe(200);
    expect((await join(await register(), code)).status).toBe(404);
    const listed = (await owner.visitor.get(`/dashboard/organizations/${orgId}`)).html;
    expect(listed).toContain('2 of 2');
    expect(listed).toContain('used up');

    const single = await createInvite(owner, orgId);
    expect((await join(await register(), single)).status).toBe(200);
    expect((await join(await register(), single)).status).toBe(404);
  });

  it('refuses a name that is empty, and an account no human claimed', async () => {
    const owner = await claimedOwner();
    await owner.visitor.get('/dashboard/organizations');
    expect((await owner.visitor.post('/dashboard/organizations', { name: '  ' })).res.status).toBe(400);
    const unclaimed = await signedInOwner();
    await unclaimed.visitor.get('/dashboard/organizations');
    const { res, html } = await unclaimed.visitor.post('/dashboard/organizations', { name: 'x' });
    expect(res.status).toBe(400);
    expect(html).toContain('Only a claimed account can own an organization.');
    expect(await accountStub(unclaimed.agent.account_id).ownedOrganizations()).toEqual([]);
  });
});

describe('only the owner', () => {
  it('sees or acts on its organization: another account’s session gets 404 for the page and every post, and nothing changes', async () => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner);
    const code = await createInvite(owner, orgId);
    const member = await register();
    expect((await join(member, code)).status).toBe(200);
    const [inviteId] = inviteIds((await owner.visitor.get(`/dashboard/organizations/${orgId}`)).html);

    const other = await claimedOwner();
    await other.visitor.get('/dashboard/organizations');
    const page = await other.visitor.get(`/dashboard/organizations/${orgId}`);
    expect(page.res.status).toBe(404);
    expect(page.html).toContain('data-code="not_found"');
    expect(page.html).not.toContain(member.account_id);
    for (const [path, fields] of [
      [`/dashboard/organizations/${orgId}/invites`, { member_cap_usd: '5' }],
      [`/dashboard/organizations/${orgId}/invites/${inviteId}/revoke`, {}],
      [`/dashboard/organizations/${orgId}/members/${member.account_id}/approve`, {}],
      [`/dashboard/organizations/${orgId}/members/${member.account_id}/remove`, {}],
    ] as const) {
      const { res, html } = await other.visitor.post(path, fields);
      expect(res.status, path).toBe(404);
      expect(shownInvite(html)).toBeUndefined();
    }
    expect((await other.visitor.get('/dashboard/organizations')).html).not.toContain(orgId);
    // An id that is no organization, or not an id, reads the same.
    expect((await other.visitor.get(`/dashboard/organizations/${crypto.randomUUID()}`)).res.status).toBe(404);
    expect((await other.visitor.get(`/dashboard/organizations/${other.agent.account_id}`)).res.status).toBe(404);
    expect((await other.visitor.get('/dashboard/organizations/nonsense')).res.status).toBe(404);

    // Nothing changed: one live invite, the member still pending.
    const after = await owner.visitor.get(`/dashboard/organizations/${orgId}`);
    expect(inviteIds(after.html)).toEqual([inviteId]);
    expect(after.html).not.toContain('badge revoked');
    expect((await accountStub(orgId).organizationMembers())!.map((m) => m.status)).toEqual(['pending']);
    // A signed-out browser is sent to sign in.
    const { Visitor } = await import('./claim-helpers');
    const anonymous = await new Visitor().get(`/dashboard/organizations/${orgId}`);
    expect(anonymous.res.status).toBe(303);
  });

  it.each([
    ['without the token', { csrf: '' }, {}],
    ['with a token not its own', { csrf: 'A'.repeat(32) }, {}],
    ['from another site (Origin)', {}, { Origin: 'https://evil.test' }],
    ['from another site (Sec-Fetch-Site)', {}, { 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses a post %s (400 csrf), changing nothing', async (_, fields: Record<string, string>, headers: Record<string, string>) => {
    const owner = await claimedOwner();
    const orgId = await createOrganization(owner);
    const member = await register();
    expect((await join(member, await createInvite(owner, orgId))).status).toBe(200);
    await owner.visitor.get(`/dashboard/organizations/${orgId}`);
    for (const path of [`/dashboard/organizations/${orgId}/members/${member.account_id}/approve`, `/dashboard/organizations/${orgId}/invites`, '/dashboard/organizations']) {
      const { res, html } = await owner.visitor.post(path, { name: 'second', ...fields }, headers);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(html)).toMatchObject({ error: { code: 'invalid_request', param: 'csrf' } });
    }
    expect((await accountStub(orgId).organizationMembers())!.map((m) => m.status)).toEqual(['pending']);
    expect(inviteIds((await owner.visitor.get(`/dashboard/organizations/${orgId}`)).html)).toHaveLength(1);
    expect(await accountStub(owner.agent.account_id).ownedOrganizations()).toEqual([orgId]);
  });
});

describe('the owner’s list', () => {
  it('stops at 20 organizations per account', async () => {
    const owner = await claimedOwner();
    const stub = accountStub(owner.agent.account_id);
    for (let i = 0; i < 20; i++) expect(await stub.reserveOwnedOrganization(crypto.randomUUID())).toEqual({ ok: true });
    expect(await stub.reserveOwnedOrganization(crypto.randomUUID())).toEqual({ ok: false, reason: 'too_many_organizations' });
    await owner.visitor.get('/dashboard/organizations');
    const { res, html } = await owner.visitor.post('/dashboard/organizations', { name: 'one too many' });
    expect(res.status).toBe(400);
    expect(html).toContain('as many organizations as it may');
    // Reserved ids never made show nothing.
    expect((await owner.visitor.get('/dashboard/organizations')).html).toContain('You have no organization yet.');
  });
});

