import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Database } from '.';
import { uploads } from './schema';

export type UploadRow = typeof uploads.$inferSelect;

/**
 * Reserves an upload if the account's bytes of `day` plus this one stay within `allowance`: one
 * statement, so concurrent reservations cannot both pass. False when the allowance is spent.
 */
export async function reserveUpload(db: Database, row: Omit<UploadRow, 'etag' | 'keyId'> & { keyId?: string | null }, allowance: number): Promise<boolean> {
  const inserted = await db.run(sql`
    INSERT INTO uploads (key, account_id, token_hash, content_type, bytes, day, created_at, put_by, put_at, uploaded_at, expires_at, key_id)
    SELECT ${row.key}, ${row.accountId}, ${row.tokenHash}, ${row.contentType}, ${row.bytes}, ${row.day}, ${row.createdAt}, ${row.putBy}, NULL, NULL, ${row.expiresAt}, ${row.keyId ?? null}
    WHERE (SELECT COALESCE(SUM(bytes), 0) FROM uploads WHERE account_id = ${row.accountId} AND day = ${row.day}) + ${row.bytes} <= ${allowance}`);
  return inserted.meta.changes === 1;
}

/** Claims the reservation of a token for its one PUT; undefined when unknown, used or expired. */
export async function claimUpload(db: Database, tokenHash: string, now: number): Promise<UploadRow | undefined> {
  const [row] = await db
    .update(uploads)
    .set({ putAt: now })
    .where(and(eq(uploads.tokenHash, tokenHash), isNull(uploads.putAt), gt(uploads.putBy, now)))
    .returning()
    .all();
  return row;
}

export async function uploadOfToken(db: Database, tokenHash: string): Promise<UploadRow | undefined> {
  return db.select().from(uploads).where(eq(uploads.tokenHash, tokenHash)).get();
}

/** The Worker's own PUT stored the object `etag`: the version `/files` serves from now on. */
export async function markUploaded(db: Database, key: string, now: number, etag: string | null = null): Promise<void> {
  await db.update(uploads).set({ uploadedAt: now, etag }).where(eq(uploads.key, key)).run();
}

export async function uploadOfKey(db: Database, key: string): Promise<UploadRow | undefined> {
  return db.select().from(uploads).where(eq(uploads.key, key)).get();
}

/**
 * Pins the checked object `etag`: the upload counts as stored from its first check on. Only the
 * first pin holds (two checks racing a second PUT cannot both pin); false when one was there.
 */
export async function markChecked(db: Database, key: string, etag: string, now: number): Promise<boolean> {
  const rows = await db
    .update(uploads)
    .set({ etag, uploadedAt: sql`COALESCE(${uploads.uploadedAt}, ${now})` })
    .where(and(eq(uploads.key, key), isNull(uploads.etag)))
    .returning({ key: uploads.key })
    .all();
  return rows.length > 0;
}

/** After its object failed the check (and was deleted): pending again, unlisted, usable by a new PUT. */
/** Clears a refused object's marks, unless a check pinned a version meanwhile (then false: the pin stands). */
export async function markRefused(db: Database, key: string): Promise<boolean> {
  const rows = await db.update(uploads).set({ etag: null, uploadedAt: null }).where(and(eq(uploads.key, key), isNull(uploads.etag))).returning({ key: uploads.key }).all();
  return rows.length > 0;
}

/**
 * The stored object was replaced (a second PUT to a presigned URL): the upload ends now, so
 * nothing of that key is served or taken as an input again; the sweep deletes the row.
 */
export async function markReplaced(db: Database, key: string, now: number): Promise<void> {
  await db.update(uploads).set({ expiresAt: now }).where(eq(uploads.key, key)).run();
}

/**
 * An account's newest reservations not yet seen in R2 whose URL worked until `since` or later
 * (a PUT that started in time may end later), at most `limit`: what `GET /v1/uploads` looks for.
 */
export async function pendingUploads(db: Database, query: { accountId: string; since: number; now: number; limit: number }): Promise<UploadRow[]> {
  const { accountId, since, now, limit } = query;
  return db
    .select()
    .from(uploads)
    .where(and(eq(uploads.accountId, accountId), isNull(uploads.uploadedAt), gt(uploads.putBy, since), gt(uploads.expiresAt, now)))
    .orderBy(desc(uploads.createdAt))
    .limit(limit)
    .all();
}

export interface UploadCursor {
  uploadedAt: number;
  key: string;
}

/** An account's uploaded, unexpired files (with `keyId`, D35: only that key's), newest first, after `cursor`; `limit + 1` rows. */
export async function uploadsPage(db: Database, query: { accountId: string; keyId?: string; limit: number; cursor?: UploadCursor; now: number }): Promise<UploadRow[]> {
  const { accountId, keyId, limit, cursor, now } = query;
  return db
    .select()
    .from(uploads)
    .where(
      and(
        eq(uploads.accountId, accountId),
        keyId === undefined ? undefined : eq(uploads.keyId, keyId),
        isNotNull(uploads.uploadedAt),
        gt(uploads.expiresAt, now),
        cursor ? or(lt(uploads.uploadedAt, cursor.uploadedAt), and(eq(uploads.uploadedAt, cursor.uploadedAt), lt(uploads.key, cursor.key))) : undefined,
      ),
    )
    .orderBy(desc(uploads.uploadedAt), desc(uploads.key))
    .limit(limit + 1)
    .all();
}

/** Expired rows (their objects are deleted by the caller first), oldest first. */
export async function expiredUploads(db: Database, now: number, limit: number): Promise<UploadRow[]> {
  return db.select().from(uploads).where(lt(uploads.expiresAt, now)).orderBy(uploads.expiresAt).limit(limit).all();
}

export async function deleteUploads(db: Database, keys: string[]): Promise<void> {
  if (keys.length > 0) await db.delete(uploads).where(inArray(uploads.key, keys)).run();
}

export async function deleteUploadsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(uploads).where(eq(uploads.accountId, accountId)).run();
}
