import { desc, eq } from 'drizzle-orm';
import type { Database } from '.';
import { humanResets } from './schema';

export type HumanResetRow = typeof humanResets.$inferSelect;

/** Records an operator reset once per id (the idempotency key); false when that id was recorded before. */
export async function recordHumanReset(db: Database, row: HumanResetRow): Promise<boolean> {
  const rows = await db.insert(humanResets).values(row).onConflictDoNothing().returning({ id: humanResets.id }).all();
  return rows.length > 0;
}

export async function humanResetById(db: Database, id: string): Promise<HumanResetRow | undefined> {
  return db.select().from(humanResets).where(eq(humanResets.id, id)).get();
}

export async function humanResetsOf(db: Database, accountId: string, limit: number): Promise<HumanResetRow[]> {
  return db.select().from(humanResets).where(eq(humanResets.accountId, accountId)).orderBy(desc(humanResets.createdAt)).limit(limit).all();
}
