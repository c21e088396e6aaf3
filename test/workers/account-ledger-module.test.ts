import { describe, expect, it } from 'vitest';
import type { CreditSource } from '../../durable-objects/account/schema';
import { checkedKey, DAY_MS, NOW, rows, withAccountModules, type AccountModules } from './account-modules';

const holdOf = (modules: AccountModules, micros: number, ttlMs?: number, now = NOW) => {
  const granted = modules.ledger.hold(checkedKey(modules, now), { keyHash: modules.keyHash, minMicros: micros, maxMicros: micros, purpose: 'chat:test', ttlMs }, now);
  if (!granted.ok) throw new Error(granted.reason);
  return granted;
};

describe('the ledger module', () => {
  it('writes a hold as its open row and one ledger row, and keeps the balance', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const granted = holdOf(modules, 300_000, 5_000);
      expect(rows(modules.storage, 'SELECT id, amount_micros, purpose, created_at, expires_at FROM holds')).toEqual([
        { id: granted.holdId, amount_micros: 300_000, purpose: 'chat:test', created_at: NOW, expires_at: NOW + 5_000 },
      ]);
      expect(rows(modules.storage, 'SELECT kind, amount_micros, balance_after_micros, idempotency_key FROM ledger')).toEqual([
        { kind: 'hold', amount_micros: 300_000, balance_after_micros: 1_000_000, idempotency_key: `hold:${granted.holdId}` },
      ]);
      expect([modules.memory.account?.balance_micros, modules.memory.holds.heldMicros]).toEqual([1_000_000, 300_000]);
    }));

  it.each([
    [-1, 10],
    [10, 5],
    [1.5, 10],
    [0, Number.NaN],
  ])('refuses a hold of min %d and max %d micro-dollars, writing nothing', (minMicros, maxMicros) =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      expect(() => modules.ledger.hold(checkedKey(modules, NOW), { keyHash: modules.keyHash, minMicros, maxMicros, purpose: 'chat:test' }, NOW)).toThrow(/invalid hold/);
      expect(rows(modules.storage, 'SELECT id FROM holds')).toEqual([]);
      expect(modules.memory.holds.heldMicros).toBe(0);
    }));

  it.each([Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses a charge of %d micro-dollars, writing nothing', (asked) =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const granted = holdOf(modules, 300_000);
      expect(() => modules.ledger.settle(granted.holdId, asked, NOW)).toThrow(/invalid charge/);
      expect(() => modules.ledger.credit({ amountMicros: asked, source: 'operator', idempotencyKey: `credit:${asked}` }, NOW)).toThrow(/invalid credit/);
      expect(rows(modules.storage, "SELECT kind FROM ledger WHERE kind != 'hold'")).toEqual([]);
      expect([modules.memory.account?.balance_micros, modules.memory.holds.heldMicros]).toEqual([1_000_000, 300_000]);
    }));

  it.each([
    [123_456.4, 123_456],
    [123_456.5, 123_457],
    [-5, 0],
  ])('charges %d micro-dollars as %d', (asked, charged) =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const granted = holdOf(modules, 200_000);
      expect(modules.ledger.settle(granted.holdId, asked, NOW)).toMatchObject({ ok: true, chargedMicros: charged, balanceMicros: 1_000_000 - charged });
    }));

  it('leaves memory as it was when a settlement’s transaction fails', () =>
    withAccountModules({ balanceMicros: 1_000_000, guardrails: { totalLimitMicros: 900_000 } }, (modules) => {
      const granted = holdOf(modules, 200_000);
      // A stray row under the settlement's idempotency key makes its ledger insert fail.
      rows(modules.storage, "INSERT INTO ledger (kind, amount_micros, balance_after_micros, idempotency_key, created_at) VALUES ('credit', 0, 0, ?, 0)", `charge:${granted.holdId}`);
      expect(() => modules.ledger.settle(granted.holdId, 150_000, NOW)).toThrow(/UNIQUE/);
      expect([modules.memory.account?.balance_micros, modules.memory.holds.heldMicros, modules.memory.holds.size]).toEqual([1_000_000, 200_000, 1]);
      expect(rows(modules.storage, 'SELECT balance_micros FROM account')).toEqual([{ balance_micros: 1_000_000 }]);
      expect(rows(modules.storage, 'SELECT id FROM holds')).toEqual([{ id: granted.holdId }]);
      expect(rows(modules.storage, 'SELECT * FROM key_spend')).toEqual([]);
    }));

  it('expires only the holds whose time is up, as releases noted "expired"', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const early = holdOf(modules, 100_000, 1_000);
      const late = holdOf(modules, 200_000, 5_000);
      modules.ledger.expire(NOW + 1_000);
      expect(modules.memory.holds.get(early.holdId)).toBeUndefined();
      expect(modules.memory.holds.soonestExpiry()).toBe(NOW + 5_000);
      expect(rows(modules.storage, 'SELECT id FROM holds')).toEqual([{ id: late.holdId }]);
      expect(rows(modules.storage, "SELECT amount_micros, note, created_at FROM ledger WHERE kind = 'release'")).toEqual([
        { amount_micros: 100_000, note: 'expired', created_at: NOW + 1_000 },
      ]);
    }));

  it('charges an expired hold late, at the settlement’s time, and only once', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const granted = holdOf(modules, 100_000, 1_000);
      modules.ledger.expire(NOW + 1_000);
      expect(modules.ledger.settle(granted.holdId, 40_000, NOW + 2_000)).toMatchObject({ ok: true, applied: true, balanceMicros: 960_000 });
      expect(modules.ledger.settle(granted.holdId, 99_999, NOW + 3_000)).toMatchObject({ ok: true, applied: false, chargedMicros: 40_000 });
      expect(rows(modules.storage, "SELECT amount_micros, note, created_at FROM ledger WHERE kind = 'charge'")).toEqual([
        { amount_micros: -40_000, note: 'chat:test', created_at: NOW + 2_000 },
      ]);
    }));

  it.each<[string, CreditSource, number, { funded: boolean; expires: boolean; card: number }]>([
    ['a welcome credit', 'welcome', 1_000, { funded: false, expires: true, card: 0 }],
    ['a negative operator correction', 'operator', -1_000, { funded: false, expires: true, card: 0 }],
    ['an operator credit', 'operator', 1_000, { funded: true, expires: false, card: 0 }],
    ['a card payment', 'card', 1_000, { funded: true, expires: false, card: 1_000 }],
    ['a USDC payment', 'usdc', 1_000, { funded: true, expires: false, card: 0 }],
  ])('records whether %s funds the account', (_, source, amountMicros, expected) =>
    withAccountModules({ balanceMicros: 5_000 }, (modules) => {
      expect(modules.ledger.credit({ amountMicros, source, idempotencyKey: 'k' }, NOW + DAY_MS)).toEqual({ applied: true, balanceMicros: 5_000 + amountMicros });
      const account = modules.memory.account!;
      expect({ funded: account.funded_at !== null, expires: account.expires_at !== null, card: account.card_funded_micros }).toEqual(expected);
      expect(rows(modules.storage, 'SELECT balance_micros, funded_at, expires_at, card_funded_micros FROM account')).toEqual([
        { balance_micros: account.balance_micros, funded_at: account.funded_at, expires_at: account.expires_at, card_funded_micros: account.card_funded_micros },
      ]);
    }));

  it('keeps the first funding time and applies each idempotency key once', () =>
    withAccountModules({}, (modules) => {
      modules.ledger.credit({ amountMicros: 1_000, source: 'usdc', idempotencyKey: 'first' }, NOW);
      expect(modules.ledger.credit({ amountMicros: 1_000, source: 'usdc', idempotencyKey: 'first' }, NOW + 1)).toEqual({ applied: false, balanceMicros: 1_000 });
      modules.ledger.credit({ amountMicros: 2_000, source: 'card', idempotencyKey: 'second', note: 'top-up' }, NOW + DAY_MS);
      expect(modules.memory.account).toMatchObject({ balance_micros: 3_000, funded_at: NOW, card_funded_micros: 2_000 });
      expect(modules.ledger.page(1).entries).toEqual([
        expect.objectContaining({ kind: 'credit', amountMicros: 2_000, balanceAfterMicros: 3_000, source: 'card', note: 'top-up', createdAt: NOW + DAY_MS }),
      ]);
    }));
});
