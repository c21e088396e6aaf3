import { describe, expect, it } from 'vitest';
import { DEAD_SUB_KEY_RETENTION_MS, SubKeys, type SubKeyRequest } from '../../durable-objects/account/sub-keys';
import { checkedKey, NOW, rows, withAccountModules } from './account-modules';

/**
 * D35 where the API cannot wait a week: a revoked sub-key is deleted at a mint 7 days later, and
 * what it spent must stay counted against the limits of the key that minted it.
 */

const ask = (hash: string): SubKeyRequest => ({ hash, hint: 'ak-…test', name: 'sub', totalLimitMicros: null, expiresAt: null, allowedModels: null, allowedRoutes: null });

describe('a pruned sub-key', () => {
  it("stays counted against its parent's total limit after it is deleted", () =>
    withAccountModules({ balanceMicros: 10_000_000 }, (modules) => {
      const subKeys = new SubKeys(modules.storage, modules.keys, modules.spend);
      const minted = subKeys.mint(modules.keyHash, ask('c'.repeat(64)), NOW);
      if (!minted.ok) throw new Error(minted.reason);
      const sub = modules.keys.check('c'.repeat(64), undefined, NOW);
      if (!sub.ok) throw new Error(sub.reason);
      const hold = modules.ledger.hold(sub.key, { keyHash: 'c'.repeat(64), minMicros: 400, maxMicros: 400, purpose: 'test' }, NOW);
      if (!hold.ok) throw new Error(hold.reason);
      modules.ledger.settle(hold.holdId, 400, NOW);
      expect(subKeys.revoke(modules.keyHash, minted.key.id, NOW).ok).toBe(true);
      modules.keys.update(modules.keyId, { totalLimitMicros: 1_000 }, NOW);
      expect(modules.spend.headroom(checkedKey(modules), NOW)?.remainingMicros).toBe(600);

      // Another unlimited key mints after the retention: the dead sub-key is deleted, its spend is not.
      modules.keys.create({ hash: 'e'.repeat(64), hint: 'ak-…eeee', name: 'other' }, NOW);
      const later = NOW + DEAD_SUB_KEY_RETENTION_MS + 1;
      expect(subKeys.mint('e'.repeat(64), ask('f'.repeat(64)), later).ok).toBe(true);
      expect(rows(modules.storage, 'SELECT id FROM api_keys WHERE id = ?', minted.key.id)).toEqual([]);
      expect(modules.spend.headroom(checkedKey(modules, later), later)?.remainingMicros).toBe(600);
    }));
});
