import { describe, expect, it } from 'vitest';
import { spendPeriods } from './periods';

describe('spend periods', () => {
  it('names the UTC day and month and counts down to each rollover', () => {
    const now = Date.UTC(2026, 10, 30, 23, 59, 30); // 2026-11-30T23:59:30Z
    expect(spendPeriods(now)).toEqual({
      day: 'd:2026-11-30',
      month: 'm:2026-11',
      dayStart: Date.UTC(2026, 10, 30),
      monthStart: Date.UTC(2026, 10, 1),
      secondsToNextDay: 30,
      secondsToNextMonth: 30,
    });
  });

  it('rolls the year over in December', () => {
    const now = Date.UTC(2026, 11, 31, 12);
    expect(spendPeriods(now)).toMatchObject({ day: 'd:2026-12-31', month: 'm:2026-12', secondsToNextDay: 43_200, secondsToNextMonth: 43_200 });
  });
});
