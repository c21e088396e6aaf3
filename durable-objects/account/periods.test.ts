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

  it('answers each moment for itself when asked again within a day and after it', () => {
    const morning = Date.UTC(2026, 10, 30, 8);
    expect(spendPeriods(morning)).toMatchObject({ day: 'd:2026-11-30', secondsToNextDay: 57_600 });
    expect(spendPeriods(morning + 3_600_000)).toMatchObject({ day: 'd:2026-11-30', month: 'm:2026-11', secondsToNextDay: 54_000 });
    expect(spendPeriods(Date.UTC(2026, 11, 1, 1))).toMatchObject({ day: 'd:2026-12-01', month: 'm:2026-12', monthStart: Date.UTC(2026, 11, 1), secondsToNextDay: 82_800 });
    expect(spendPeriods(Date.UTC(2026, 10, 29, 23))).toMatchObject({ day: 'd:2026-11-29', dayStart: Date.UTC(2026, 10, 29), secondsToNextDay: 3_600 });
  });
});
