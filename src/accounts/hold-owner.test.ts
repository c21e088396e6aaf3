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
