import { describe, expect, it } from 'vitest';
import { spendByDayAndMember } from './member-usage';
import { OTHER } from './usage';

/** 2026-11-30T15:00:00Z */
const NOW = Date.UTC(2026, 10, 30, 15);
const member = (n: number) => `${String(n).repeat(8)}-0000-4000-8000-000000000000`;

describe('spendByDayAndMember', () => {
  it('draws one series per member by its short id, largest first, and past 6 the smallest as other', () => {
    const rows = [1, 2, 3, 4, 5, 6, 7].map((n) => ({ day: '2026-11-29', accountId: member(n), micros: n * 100 }));
    rows.push({ day: '2026-10-01', accountId: member(9), micros: 5 }); // before the window
    const usage = spendByDayAndMember(rows, NOW);
    expect(usage.models).toEqual(['77777777', '66666666', '55555555', '44444444', '33333333', OTHER]);
    expect(usage.cells[usage.days.indexOf('2026-11-29')]).toEqual([700, 600, 500, 400, 300, 300]);
    expect(usage.totalMicros).toBe(2800);
  });
});
