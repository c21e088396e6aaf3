/** UTC spend periods for the per-key limits, and how long until each one rolls over. */
export interface SpendPeriods {
  day: string;
  month: string;
  /** When the day and the month began (ms since epoch). */
  dayStart: number;
  monthStart: number;
  secondsToNextDay: number;
  secondsToNextMonth: number;
}

export const TOTAL_PERIOD = 'total';

/** The last day computed: every settlement of a counted key or a member asks, and the day rarely changes. */
let lastDay: { dayStart: number; nextDay: number; nextMonth: number; periods: Omit<SpendPeriods, 'secondsToNextDay' | 'secondsToNextMonth'> } | null = null;

export function spendPeriods(now: number): SpendPeriods {
  if (lastDay && now >= lastDay.dayStart && now < lastDay.nextDay) {
    return { ...lastDay.periods, secondsToNextDay: Math.ceil((lastDay.nextDay - now) / 1000), secondsToNextMonth: Math.ceil((lastDay.nextMonth - now) / 1000) };
  }
  const date = new Date(now);
  const iso = date.toISOString();
  const dayStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  const monthStart = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const nextDay = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
  const nextMonth = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  const periods = { day: `d:${iso.slice(0, 10)}`, month: `m:${iso.slice(0, 7)}`, dayStart, monthStart };
  lastDay = { dayStart, nextDay, nextMonth, periods };
  return { ...periods, secondsToNextDay: Math.ceil((nextDay - now) / 1000), secondsToNextMonth: Math.ceil((nextMonth - now) / 1000) };
}
