import { accountPrefix } from '../../src/media/keys';

/**
 * The largest item (its JSON, in UTF-8 bytes) kept in a Durable Object row. Production refuses a
 * row or value above 2 MB (local workerd does not), and a fetched page may be 10 MB: anything
 * larger than this goes to R2, and the row keeps its key and size.
 */
export const MAX_ROW_ITEM_BYTES = 512 * 1024;

/** An item ready for its row: inline (`data`), or stored in R2 under `r2Key` with `data` empty. */
export interface StoredItem {
  data: Record<string, unknown>;
  r2Key: string | null;
  bytes: number;
}

/** Where a job's large items live: under its account's `results/` prefix, so account deletion and the results sweep find them. */
export function itemsPrefix(accountId: string, jobId: string): string {
  return `${accountPrefix('results', accountId)}${jobId}/items/`;
}

/**
 * Keeps item number `n` (0-based, in the job's order) inline when it is small, else writes its
 * JSON to R2. The key depends only on the job and `n`, so a batch written again (an alarm that
 * failed after the put) overwrites the same object.
 */
export async function storeItem(bucket: R2Bucket, accountId: string, jobId: string, n: number, item: Record<string, unknown>): Promise<StoredItem> {
  const json = new TextEncoder().encode(JSON.stringify(item));
  if (json.byteLength <= MAX_ROW_ITEM_BYTES) return { data: item, r2Key: null, bytes: json.byteLength };
  const r2Key = `${itemsPrefix(accountId, jobId)}${n}`;
  await bucket.put(r2Key, json, { httpMetadata: { contentType: 'application/json' } });
  return { data: {}, r2Key, bytes: json.byteLength };
}

/** R2's most keys per `delete` call. */
const DELETE_BATCH = 1000;

/** Deletes the R2 copies of a job's large items (they are in its result set once it settled). */
export async function deleteItemObjects(bucket: R2Bucket, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += DELETE_BATCH) await bucket.delete(keys.slice(i, i + DELETE_BATCH));
}
