import { describe, expect, it } from 'vitest';
import { isLongLived, MAX_OPEN_HOLDS, MAX_OPEN_JOB_HOLDS, MAX_ORG_OPEN_HOLDS, MEMBER_OPEN_HOLDS_SHARE, OpenHolds } from './holds';
import type { OpenHold } from './statements';

const hold = (id: string, key_id: string | null, amount_micros: number, expires_at: number): OpenHold => ({
  id,
  key_id,
  amount_micros,
  purpose: 'test',
  request_id: null,
  member_account_id: null,
  created_at: expires_at - 1_000,
  expires_at,
});

describe('open holds in memory', () => {
  it('keeps the sum held as holds come and go', () => {
    const holds = new OpenHolds();
    const a = hold('a', 'key_1', 100, 10);
    holds.add(a);
    holds.add(hold('b', 'key_2', 250, 20));
    expect([holds.size, holds.heldMicros]).toEqual([2, 350]);
    holds.remove(a);
    expect([holds.size, holds.heldMicros, holds.get('a'), holds.get('b')?.amount_micros]).toEqual([1, 250, undefined, 250]);
  });

  it('sums one key’s holds only, ignoring holds without a key', () => {
    const holds = new OpenHolds();
    holds.replace([hold('a', 'key_1', 100, 10), hold('b', 'key_2', 250, 20), hold('c', 'key_1', 5, 30), hold('d', null, 7, 40)]);
    expect([holds.heldBy('key_1'), holds.heldBy('key_2'), holds.heldBy('key_3')]).toEqual([105, 250, 0]);
  });

  it('finds the holds expired at an instant, that instant included', () => {
    const holds = new OpenHolds();
    holds.replace([hold('a', null, 1, 10), hold('b', null, 1, 20), hold('c', null, 1, 21)]);
    expect(holds.expiredAt(20).map((h) => h.id)).toEqual(['a', 'b']);
    expect(holds.soonestExpiry()).toBe(10);
  });

  it('has no expiry to wait for when nothing is open', () => {
    const holds = new OpenHolds();
    expect(holds.soonestExpiry()).toBe(Infinity);
    expect(holds.expiredAt(Number.MAX_SAFE_INTEGER)).toEqual([]);
  });

  it('replaces everything on load and forgets everything on clear', () => {
    const holds = new OpenHolds();
    holds.add(hold('old', null, 999, 1));
    holds.replace([hold('a', null, 3, 10)]);
    expect([holds.size, holds.heldMicros, holds.get('old')]).toEqual([1, 3, undefined]);
    holds.clear();
    expect([holds.size, holds.heldMicros]).toEqual([0, 0]);
  });
});

describe('hold ceilings by purpose', () => {
  it('counts long-lived holds (jobs, crawls, sync renders) apart from in-flight ones', () => {
    expect(['image-job:m', 'video:m', 'crawl', 'extract', 'image:m', 'speech:m'].every(isLongLived)).toBe(true);
    expect(['chat:openai/gpt-4o', 'scrape', 'test', 'imagery:m'].some(isLongLived)).toBe(false);
    const holds = new OpenHolds();
    holds.replace(Array.from({ length: MAX_OPEN_HOLDS }, (_, i) => ({ ...hold(`c${i}`, null, 1, 10), purpose: 'chat:m' })));
    expect([holds.fullFor('chat:m'), holds.fullFor('scrape'), holds.fullFor('video:m')]).toEqual([MAX_OPEN_HOLDS, MAX_OPEN_HOLDS, null]);
    for (let i = 0; i < MAX_OPEN_JOB_HOLDS; i++) holds.add({ ...hold(`j${i}`, null, 1, 10), purpose: 'image-job:m' });
    expect(holds.fullFor('crawl')).toBe(MAX_OPEN_JOB_HOLDS);
    holds.remove(holds.get('j0')!);
    expect([holds.fullFor('crawl'), holds.fullFor('chat:m')]).toEqual([null, MAX_OPEN_HOLDS]);
    holds.clear();
    expect(holds.fullFor('crawl')).toBeNull();
  });

  it('lets an organization\'s member open its share of in-flight holds when others took the shared ones, up to the organization\'s ceiling', () => {
    const holds = new OpenHolds();
    const of = (member: string, n: number, from = 0) =>
      Array.from({ length: n }, (_, i) => ({ ...hold(`${member}${from + i}`, null, 1, 10), purpose: 'chat:m', member_account_id: member }));
    holds.replace(of('a', MAX_OPEN_HOLDS - 1));
    expect(holds.fullForMember('chat:m', 'a')).toBeNull(); // the shared ceiling not reached yet
    for (const h of of('a', 1, MAX_OPEN_HOLDS)) holds.add(h);
    expect(holds.fullForMember('chat:m', 'a')).toBe(MAX_OPEN_HOLDS);
    expect(holds.fullForMember('image:m', 'a')).toBeNull(); // long-lived holds keep their own ceiling
    expect(holds.fullForMember('chat:m', 'b')).toBeNull();
    for (const h of of('b', MEMBER_OPEN_HOLDS_SHARE)) holds.add(h);
    expect(holds.fullForMember('chat:m', 'b')).toBe(MEMBER_OPEN_HOLDS_SHARE);
    expect(holds.openByMember('b')).toBe(MEMBER_OPEN_HOLDS_SHARE);
    holds.remove(holds.get('b0')!);
    expect(holds.fullForMember('chat:m', 'b')).toBeNull();
    // However many members: never more than the organization's own ceiling.
    for (let m = 0; holds.size < MAX_ORG_OPEN_HOLDS; m++) for (const h of of(`m${m}-`, Math.min(MEMBER_OPEN_HOLDS_SHARE, MAX_ORG_OPEN_HOLDS - holds.size))) holds.add(h);
    expect(holds.fullForMember('chat:m', 'c')).toBe(0);
  });
});
