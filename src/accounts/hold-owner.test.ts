import { describe, expect, it } from 'vitest';
import { sortableId } from '../../durable-objects/account/ids';
import { newInviteCode, organizationIdOfInvite } from './credentials';
import { holdOwner, orgHoldPrefix } from './hold-owner';

describe('holdOwner (D29)', () => {
  it('names the organization for a hold made there, whichever member account is asked', () => {
    const organizationId = crypto.randomUUID();
    const holdId = sortableId(orgHoldPrefix(organizationId));
    expect(holdId).toMatch(/^oh_[0-9A-Za-z]{22}_/);
    expect(holdOwner(crypto.randomUUID(), holdId)).toBe(organizationId);
  });

  it('names each organization for its own holds when several are asked in turn, again and again (the decoding is remembered per isolate)', () => {
    const organizations = [crypto.randomUUID(), crypto.randomUUID()];
    const holds = organizations.map((id) => [sortableId(orgHoldPrefix(id)), sortableId(orgHoldPrefix(id))] as const);
    for (let round = 0; round < 2; round++) {
      organizations.forEach((id, i) => {
        for (const holdId of holds[i]!) expect(holdOwner(crypto.randomUUID(), holdId)).toBe(id);
      });
    }
    // An organization part that decodes to no account id, asked twice: each time the asking account.
    for (const accountId of [crypto.randomUUID(), crypto.randomUUID()]) expect(holdOwner(accountId, `oh_${'z'.repeat(22)}_0mwx`)).toBe(accountId);
  });

  it.each([
    ['an account\'s own hold', 'hold_0mwx1234abcdefghijklmn'],
    ['a hold id without its organization part', 'oh__0mwx1234'],
    ['an organization part that is no account id', `oh_${'z'.repeat(22)}_0mwx`],
  ])('keeps the account for %s', (_, holdId) => {
    const accountId = crypto.randomUUID();
    expect(holdOwner(accountId, holdId)).toBe(accountId);
  });
});

describe('invite codes (D29)', () => {
  it('carry their organization, and differ each time', () => {
    const organizationId = crypto.randomUUID();
    const code = newInviteCode(organizationId);
    expect(code).toMatch(/^inv-[0-9A-Za-z]{54}$/);
    expect(organizationIdOfInvite(code)).toBe(organizationId);
    expect(newInviteCode(organizationId)).not.toBe(code);
  });

  it.each([['an API key', `ak-${'a'.repeat(45)}`], ['too short', `inv-${'a'.repeat(53)}`], ['a non-base62 character', `inv-${'a'.repeat(53)}-`], ['an organization part above 2^128', `inv-${'z'.repeat(54)}`]])(
    'refuse %s',
    (_, code) => {
      expect(organizationIdOfInvite(code)).toBeNull();
    },
  );
});
