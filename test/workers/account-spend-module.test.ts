import { describe, expect, it } from 'vitest';
import { checkedKey, DAY_MS, holdAndSettle, NOW, rows, withAccountModules } from './account-modules';

const counters = (modules: { storage: DurableObjectStorage; keyId: string }) =>
  rows(modules.storage, 'SELECT period, spent_micros FROM key_spend WHERE key_id = ? ORDER BY period', modules.keyId);

describe('per-key spend counters', () => {
  it('keeps no counters for a key without limits', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      holdAndSettle(modules, 100_000);
      expect(counters(modules)).toEqual([]);
      expect(modules.spend.headroom(checkedKey(modules), NOW)).toBeNull();
    }));

  it('counts a charge under its UTC day, its month and the total', () =>
    withAccountModules({ balanceMicros: 1_000_000, guardrails: { dailyLimitMicros: 900_000 } }, (modules) => {
      holdAndSettle(modules, 100_000, NOW);
      holdAndSettle(modules, 50_000, NOW + DAY_MS); // 2026-12-01
      expect(counters(modules)).toEqual([
        { period: 'd:2026-11-30', spent_micros: 100_000 },
        { period: 'd:2026-12-01', spent_micros: 50_000 },
        { period: 'm:2026-11', spent_micros: 100_000 },
        { period: 'm:2026-12', spent_micros: 50_000 },
        { period: 'total', spent_micros: 150_000 },
      ]);
    }));

  it('rebuilds the counters from the ledger when a key gains a limit', () =>
    withAccountModules({ balanceMicros: 10_000_000 }, (modules) => {
      holdAndSettle(modules, 1_000, Date.UTC(2026, 9, 31, 23)); // last month
      holdAndSettle(modules, 20_000, Date.UTC(2026, 10, 1)); // this month
      holdAndSettle(modules, 300_000, Date.UTC(2026, 10, 30)); // today, at midnight
      modules.keys.update(modules.keyId, { dailyLimitMicros: 1_000_000 }, NOW);
      expect(counters(modules)).toEqual([
        { period: 'd:2026-11-30', spent_micros: 300_000 },
        { period: 'm:2026-11', spent_micros: 320_000 },
        { period: 'total', spent_micros: 321_000 },
      ]);
    }));

  it('names the tightest limit, counting spend and open holds, and when it grows again', () =>
    withAccountModules(
      { balanceMicros: 10_000_000, guardrails: { dailyLimitMicros: 500_000, monthlyLimitMicros: 2_000_000, totalLimitMicros: 3_000_000 } },
      (modules) => {
        holdAndSettle(modules, 100_000);
        const open = modules.ledger.hold(checkedKey(modules), { keyHash: modules.keyHash, minMicros: 50_000, maxMicros: 50_000, purpose: 'test' }, NOW);
        expect(open.ok).toBe(true);
        expect(modules.spend.headroom(checkedKey(modules), NOW)).toEqual({ reason: 'daily_limit', remainingMicros: 350_000, retryAfterSeconds: 12 * 3600 });
        // The next day starts a new day's counter; the open hold still counts.
        expect(modules.spend.headroom(checkedKey(modules, NOW + DAY_MS), NOW + DAY_MS)).toEqual({ reason: 'daily_limit', remainingMicros: 450_000, retryAfterSeconds: 12 * 3600 });
        modules.keys.update(modules.keyId, { dailyLimitMicros: null, totalLimitMicros: 200_000 }, NOW);
        expect(modules.spend.headroom(checkedKey(modules), NOW)).toEqual({ reason: 'total_limit', remainingMicros: 50_000, retryAfterSeconds: 86_400 });
      },
    ));

  it('never reports less than nothing left', () =>
    withAccountModules({ balanceMicros: 10_000_000, guardrails: { monthlyLimitMicros: 100_000 } }, (modules) => {
      const granted = modules.ledger.hold(checkedKey(modules), { keyHash: modules.keyHash, minMicros: 100_000, maxMicros: 100_000, purpose: 'test' }, NOW);
      if (!granted.ok) throw new Error(granted.reason);
      modules.ledger.settle(granted.holdId, 250_000, NOW); // the work cost more than the hold
      expect(modules.spend.headroom(checkedKey(modules), NOW)).toMatchObject({ reason: 'monthly_limit', remainingMicros: 0 });
    }));

  it('adds only the growth of what an organization the account left reports of a key, and gives it back on a rejoin', () =>
    withAccountModules({ balanceMicros: 1_000_000, guardrails: { totalLimitMicros: 900_000 } }, (modules) => {
      const report = (spentMicros: number) => [{ keyId: modules.keyId, period: 'total', spentMicros }];
      modules.storage.transactionSync(() => modules.spend.absorb('org_1', report(3_000)));
      modules.storage.transactionSync(() => modules.spend.absorb('org_1', report(5_000))); // a charge settled after the leave
      modules.storage.transactionSync(() => modules.spend.absorb('org_1', report(3_000))); // an older report, late
      expect(counters(modules)).toEqual([{ period: 'total', spent_micros: 5_000 }]);
      expect(modules.spend.absorbedTotals()).toEqual(new Map([[modules.keyId, 5_000]]));
      modules.storage.transactionSync(() => modules.spend.returnAbsorbed('org_1'));
      expect(counters(modules)).toEqual([{ period: 'total', spent_micros: 0 }]);
      expect(modules.spend.absorbedTotals()).toEqual(new Map());
    }));
});
