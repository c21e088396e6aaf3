import { and, desc, eq, gt, inArray, lt, or } from 'drizzle-orm';
import type { Database } from '.';
import { generations } from './schema';

export type GenerationRow = typeof generations.$inferSelect;
export type GenerationKind = GenerationRow['kind'];

/** Records a generation once: a repeated insert (a redelivered job message) changes nothing. */
export async function insertGeneration(db: Database, row: GenerationRow): Promise<void> {
  await db.insert(generations).values(row).onConflictDoNothing().run();
}

/** Where a page ends: the last row's creation time and id (ids break ties). */
export interface GenerationCursor {
  createdAt: number;
  id: string;
}

/**
 * One account's still-hosted generations (with `keyId`, D35: only that key's), newest first,
 * after `cursor`; `limit + 1` rows are read so the caller knows whether another page follows.
 */
export async function generationsPage(
  db: Database,
  query: { accountId: string; keyId?: string; kinds: GenerationKind[]; limit: number; cursor?: GenerationCursor; now: number },
): Promise<GenerationRow[]> {
  const { accountId, keyId, kinds, limit, cursor, now } = query;
  return db
    .select()
    .from(generations)
    .where(
      and(
        eq(generations.accountId, accountId),
        keyId === undefined ? undefined : eq(generations.keyId, keyId),
        inArray(generations.kind, kinds),
        gt(generations.expiresAt, now),
        cursor
          ? or(lt(generations.createdAt, cursor.createdAt), and(eq(generations.createdAt, cursor.createdAt), lt(generations.id, cursor.id)))
          : undefined,
      ),
    )
    .orderBy(desc(generations.createdAt), desc(generations.id))
    .limit(limit + 1)
    .all();
}

export async function deleteGenerationsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(generations).where(eq(generations.accountId, accountId)).run();
}
