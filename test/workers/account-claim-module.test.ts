import { describe, expect, it } from 'vitest';
import { ClaimState } from '../../durable-objects/account/claim';
import { NOW, rows, withAccountModules } from './account-modules';

describe('the claim module of the account Durable Object', () => {
  it('knows the claim token by its hash only, compared whole', () =>
    withAccountModules({}, ({ storage, memory }) => {
      const claim = new ClaimState(storage, memory);
      // withAccountModules stores 'claim' as the token's hash.
      expect(claim.verify('claim', NOW)).toBe('original');
      expect(claim.verify('clain', NOW)).toBeNull();
      expect(claim.verify('clai', NOW)).toBeNull();
      expect(claim.verify('', NOW)).toBeNull();
    }));

  it('marks the account claimed once: it stops expiring, and a second call keeps the first time', () =>
    withAccountModules({}, ({ storage, memory }) => {
      const claim = new ClaimState(storage, memory);
      expect(claim.markClaimed(NOW)).toBe(true);
      expect(claim.markClaimed(NOW + 1000)).toBe(true);
      expect(rows(storage, 'SELECT claimed_at, expires_at FROM account')).toEqual([{ claimed_at: NOW, expires_at: null }]);
      expect(memory.account).toMatchObject({ claimed_at: NOW, expires_at: null });
    }));

  it('answers false without an account', () =>
    withAccountModules({}, ({ storage, memory }) => {
      memory.clear();
      const claim = new ClaimState(storage, memory);
      expect(claim.verify('claim', NOW)).toBeNull();
      expect(claim.markClaimed(NOW)).toBe(false);
    }));
});
