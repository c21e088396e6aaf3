import type { MemberDailySpendRow } from '../../../durable-objects/account/org-usage';
import { spendByDayAndModel, type UsageSeries } from './usage';

/** A member as the chart names it: its account's short id (the first 8 characters, as the dashboard shows accounts). */
export const memberLabel = (accountId: string) => accountId.slice(0, 8);

/**
 * An organization's spend per day by member, laid out as the overview's chart by model (the same
 * series, past 6 members the smallest drawn together as "other"). Pure.
 */
export function spendByDayAndMember(rows: MemberDailySpendRow[], now: number): UsageSeries {
  return spendByDayAndModel(
    rows.map((row) => ({ day: row.day, purpose: memberLabel(row.accountId), micros: row.micros })),
    now,
  );
}
