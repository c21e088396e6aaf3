import { describe, expect, it } from 'vitest';
import { Usage } from '../../durable-objects/account/usage';
import { checkedKey, DAY_MS, NOW, withAccountModules, type AccountModules } from './account-modules';

/** A billed request at `now`: a hold for `purpose`, settled at `micros`. */
function charge(modules: AccountModules, micros: number, purpose: string, now = NOW, requestId = `req_${crypto.randomUUID()}`) {
  const granted = modules.ledger.hold(checkedKey(modules, now), { keyHash: modules.keyHash, minMicros: micros, maxMicros: micros * 2, purpose, requestId }, now);
  if (!granted.ok) throw new Error(granted.reason);
  modules.ledger.settle(granted.holdId, micros, now);
  return requestId;
}

describe('the usage module', () => {
  it('pages charges newest first, with key, purpose, request id and the amount charged (not held)', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const usage = new Usage(modules.storage);
      const first = charge(modules, 100, 'chat:openai/gpt-4o', NOW);
      const second = charge(modules, 200, 'image:openai/gpt-image-1', NOW + 1);
      const third = charge(modules, 300, 'scrape', NOW + 2);
      const page = usage.charges({}, 2);
      expect(page.entries.map((entry) => [entry.amountMicros, entry.purpose, entry.requestId, entry.keyId, entry.createdAt])).toEqual([
        [300, 'scrape', third, modules.keyId, NOW + 2],
        [200, 'image:openai/gpt-image-1', second, modules.keyId, NOW + 1],
      ]);
      expect(page.nextBefore).not.toBeNull();
      const rest = usage.charges({}, 2, page.nextBefore!);
      expect(rest.entries.map((entry) => entry.requestId)).toEqual([first]);
      expect(rest.nextBefore).toBeNull();
    }));

  it('filters charges by model whatever the kind of request, and by key', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const usage = new Usage(modules.storage);
      charge(modules, 1, 'image:openai/gpt-image-1');
      charge(modules, 2, 'image-job:openai/gpt-image-1');
      charge(modules, 3, 'chat:openai/gpt-4o');
      charge(modules, 4, 'scrape');
      const amounts = (filter: Parameters<Usage['charges']>[0]) => usage.charges(filter, 10).entries.map((entry) => entry.amountMicros);
      expect(amounts({ model: 'openai/gpt-image-1' })).toEqual([2, 1]);
      expect(amounts({ model: 'scrape' })).toEqual([4]);
      expect(amounts({ model: 'gpt-image-1' })).toEqual([]);
      expect(amounts({ keyId: modules.keyId, model: 'openai/gpt-4o' })).toEqual([3]);
      expect(amounts({ keyId: 'key_other' })).toEqual([]);
    }));

  it('sums charges per UTC day and purpose from an instant on, leaving holds and releases out', () =>
    withAccountModules({ balanceMicros: 1_000_000 }, (modules) => {
      const usage = new Usage(modules.storage);
      charge(modules, 50, 'chat:a', NOW - 40 * DAY_MS);
      charge(modules, 5, 'chat:a', NOW - DAY_MS);
      charge(modules, 7, 'chat:a', NOW - DAY_MS);
      charge(modules, 11, 'chat:b', NOW);
      charge(modules, 13, 'chat:a', NOW);
      // An open hold charges nothing yet.
      modules.ledger.hold(checkedKey(modules), { keyHash: modules.keyHash, minMicros: 99, maxMicros: 99, purpose: 'chat:a' }, NOW);
      expect(usage.dailySpend(NOW - 30 * DAY_MS)).toEqual([
        { day: '2026-11-29', purpose: 'chat:a', micros: 12 },
        { day: '2026-11-30', purpose: 'chat:a', micros: 13 },
        { day: '2026-11-30', purpose: 'chat:b', micros: 11 },
      ]);
      expect(usage.dailySpend(NOW + DAY_MS)).toEqual([]);
    }));

  it('lists credits newest first with their source', () =>
    withAccountModules({ balanceMicros: 0 }, (modules) => {
      modules.ledger.credit({ amountMicros: 5_000_000, source: 'operator', idempotencyKey: 'operator:1', note: 'thanks' }, NOW);
      modules.ledger.credit({ amountMicros: 25_000_000, source: 'card', idempotencyKey: 'stripe:cs_1' }, NOW + 1);
      expect(new Usage(modules.storage).credits(10)).toMatchObject([
        { amountMicros: 25_000_000, source: 'card', note: null, createdAt: NOW + 1 },
        { amountMicros: 5_000_000, source: 'operator', note: 'thanks', createdAt: NOW },
      ]);
    }));
});
