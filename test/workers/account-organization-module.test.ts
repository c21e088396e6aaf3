import { describe, expect, it } from 'vitest';
import { Organization } from '../../durable-objects/account/organization';
import type { MemberHoldRequest } from '../../durable-objects/account/org-protocol';
import { DAY_MS, NOW, rows, withAccountModules, type AccountModules } from './account-modules';

/**
 * D29's organization side over real storage, with the time chosen by the test: the order of
 * refusals, the lowered hold, the cap's UTC month and what a member's charges count.
 */

const MEMBER = crypto.randomUUID();

/** An organization holding `balanceMicros` with one active member capped at `capMicros` (null: none). */
function withOrganization<T>(balanceMicros: number, capMicros: number | null, body: (org: Organization, modules: AccountModules) => T): Promise<T> {
  return withAccountModules({ balanceMicros }, (modules) => {
    modules.storage.sql.exec("UPDATE account SET kind = 'organization', name = 'test', id = ?", crypto.randomUUID());
    modules.memory.load(modules.storage);
    const org = new Organization(modules.storage, modules.memory, modules.ledger, modules.spend);
    const inviteId = org.createInvite('b'.repeat(64), { capMicros, autoApprove: true, maxUses: 1 }, NOW);
    expect(inviteId).toMatch(/^inv_/);
    expect(org.join(MEMBER, 'b'.repeat(64), NOW)).toEqual({ ok: true, status: 'active' });
    return body(org, modules);
  });
}

const ask = (min: number, max: number, keyLimits: MemberHoldRequest['keyLimits'] = []): MemberHoldRequest => ({
  memberAccountId: MEMBER,
  keyId: 'key_member',
  keyLimits,
  request: { minMicros: min, maxMicros: max, purpose: 'chat:test/model' },
});

describe('an organization\'s member holds', () => {
  it('refuses for the key\'s limit first, then the cap, then the balance', () =>
    withOrganization(1_000, 2_000, (org) => {
      const limit = { reason: 'total_limit' as const, period: 'total', remainingMicros: 500, retryAfterSeconds: 86_400 };
      expect(org.hold(ask(3_000, 3_000, [limit]), NOW)).toMatchObject({ ok: false, reason: 'total_limit', remainingMicros: 500 });
      expect(org.hold(ask(3_000, 3_000), NOW)).toMatchObject({ ok: false, reason: 'member_cap_exceeded', remainingMicros: 2_000, capMicros: 2_000 });
      expect(org.hold(ask(1_500, 1_500), NOW)).toMatchObject({ ok: false, reason: 'insufficient_org_credits', availableMicros: 1_000, neededMicros: 1_500 });
    }));

  it('lowers a hold to the least room (D5) and says what is left', () =>
    withOrganization(10_000, 4_000, (org) => {
      const first = org.hold(ask(1_000, 3_000), NOW);
      expect(first).toMatchObject({ ok: true, amountMicros: 3_000, availableMicros: 1_000 });
      expect(org.hold(ask(500, 3_000), NOW)).toMatchObject({ ok: true, amountMicros: 1_000, availableMicros: 0 });
    }));

  it('counts a member\'s charges against its cap for the UTC month only, and its open holds until they close', () =>
    withOrganization(100_000, 5_000, (org, modules) => {
      const held = org.hold(ask(4_000, 4_000), NOW);
      if (!held.ok) throw new Error(held.reason);
      expect(org.hold(ask(2_000, 2_000), NOW)).toMatchObject({ ok: false, reason: 'member_cap_exceeded', remainingMicros: 1_000 });
      modules.ledger.settle(held.holdId, 3_000, NOW);
      expect(org.member(MEMBER, NOW)).toMatchObject({ spentThisMonthMicros: 3_000 });
      expect(rows(modules.storage, 'SELECT member_account_id, key_id FROM ledger WHERE kind = ?', 'charge')).toEqual([{ member_account_id: MEMBER, key_id: 'key_member' }]);
      expect(org.hold(ask(2_001, 2_001), NOW)).toMatchObject({ ok: false, reason: 'member_cap_exceeded', remainingMicros: 2_000 });
      // 2026-12-01: a new month, the whole cap again.
      expect(org.hold(ask(5_000, 5_000), NOW + DAY_MS)).toMatchObject({ ok: true, amountMicros: 5_000 });
    }));

  it('counts a charge that settles after its hold expired against the member\'s cap at the next hold', () =>
    withOrganization(100_000, 5_000, (org, modules) => {
      const later = NOW + 2 * 60 * 60 * 1000; // both holds' hour is up; the same UTC month
      const held = org.hold(ask(4_000, 4_000), NOW);
      if (!held.ok) throw new Error(held.reason);
      expect(org.hold(ask(1_000, 1_000), NOW)).toMatchObject({ ok: true });
      modules.ledger.expire(later);
      expect(modules.ledger.settle(held.holdId, 3_500, later)).toMatchObject({ ok: true, applied: true });
      expect(org.hold(ask(1_501, 1_501), later)).toMatchObject({ ok: false, reason: 'member_cap_exceeded', remainingMicros: 1_500 });
    }));

  it('answers a pending, left or unknown member as the caller\'s to handle', () =>
    withOrganization(100_000, null, (org) => {
      org.remove(MEMBER, NOW);
      expect(org.hold(ask(1, 1), NOW)).toEqual({ ok: false, reason: 'not_member' });
      expect(org.join(MEMBER, 'b'.repeat(64), NOW)).toEqual({ ok: true, status: 'pending' });
      expect(org.hold(ask(1, 1), NOW)).toMatchObject({ ok: false, reason: 'membership_pending' });
      expect(org.approve(MEMBER, NOW)).toMatchObject({ status: 'active' });
      expect(org.hold(ask(1, 1), NOW)).toMatchObject({ ok: true });
      expect(org.hold({ ...ask(1, 1), memberAccountId: crypto.randomUUID() }, NOW)).toEqual({ ok: false, reason: 'not_member' });
    }));
});
