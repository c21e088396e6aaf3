import { sql } from 'drizzle-orm';
import type { Database } from '.';
import { welcomeCreditDays } from './schema';

/**
 * Takes `amountMicros` of `day`'s welcome-credit budget if that much is left under `budgetMicros`,
 * in one conditional upsert, so grants racing each other never sum past the budget.
 */
export async function takeWelcomeBudget(db: Database, day: string, amountMicros: number, budgetMicros: number): Promise<boolean> {
  if (amountMicros <= 0 || amountMicros > budgetMicros) return false;
  const rows = await db
    .insert(welcomeCreditDays)
    .values({ day, grantedMicros: amountMicros, grants: 1 })
    .onConflictDoUpdate({
      target: welcomeCreditDays.day,
      set: { grantedMicros: sql`${welcomeCreditDays.grantedMicros} + ${amountMicros}`, grants: sql`${welcomeCreditDays.grants} + 1` },
      setWhere: sql`${welcomeCreditDays.grantedMicros} + ${amountMicros} <= ${budgetMicros}`,
    })
    .returning({ grantedMicros: welcomeCreditDays.grantedMicros })
    .all();
  return rows.length > 0;
}

