/**
 * The account's stored responses (`store`, `previous_response_id`, `GET`/`DELETE
 * /v1/responses/{id}`, `input_items`), on every model: R2 (the MEDIA bucket), never on the path of
 * a request that does not use them.
 *
 * Layout: `responses/<account_id>/<response_id>` holds one JSON record (the Response as the client
 * got it, and every input item the answer saw: the chained history included, so a follow-up
 * reads one object), and an empty marker `responses-by-day/<YYYY-MM-DD>/<account_id>/<response_id>`
 * lets the cron delete what is past RESPONSE_RETENTION_MS oldest first without listing accounts.
 * Reads also refuse a record older than that, so the 30 days hold whenever the cron runs. The
 * prefix is not an `OBJECT_KINDS` kind: `/files/` links never serve it.
 */

type Json = Record<string, unknown>;

const DAY_MS = 86_400_000;
/** Kept 30 days after the answer (contract). */
export const RESPONSE_RETENTION_MS = 30 * DAY_MS;
/** One stored response, input history and output together, is at most 8 MiB of JSON: beyond, `store` is refused (input) or skipped (output). */
export const MAX_STORED_BYTES = 8 * 1024 * 1024;

export interface StoredResponse {
  /** The Response object as the client was given it (without `x_service`). */
  response: Json;
  /** Every input item the answer saw, in order, each with an `id`. */
  input: Json[];
  /** Hash of the key that made it: a sub-key sees only its own (D35). */
  keyHash: string;
  /** Milliseconds since the epoch. */
  storedAt: number;
}

const recordKey = (accountId: string, id: string) => `responses/${accountId}/${id}`;
const markerPrefix = 'responses-by-day/';
const markerKey = (accountId: string, id: string, at: number) => `${markerPrefix}${new Date(at).toISOString().slice(0, 10)}/${accountId}/${id}`;

/** Ids the store takes: OpenAI's and ours (`resp_` and URL-safe characters), so a key never leaves the account's prefix. */
export const isResponseId = (id: string) => /^resp_[A-Za-z0-9_-]{1,200}$/.test(id);

export const storedBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/**
 * Writes one response; false when it is over MAX_STORED_BYTES (not stored). The record and its
 * marker are written at once (one round trip before the answer's final event): a write cut short
 * leaves a marker the sweep removes, or a record the bucket's lifecycle rule (31 days) removes.
 */
export async function putResponse(bucket: R2Bucket, accountId: string, stored: StoredResponse): Promise<boolean> {
  const id = String(stored.response.id);
  if (!isResponseId(id)) return false;
  const body = JSON.stringify(stored);
  if (new TextEncoder().encode(body).byteLength > MAX_STORED_BYTES) return false;
  await Promise.all([bucket.put(markerKey(accountId, id, stored.storedAt), ''), bucket.put(recordKey(accountId, id), body, { httpMetadata: { contentType: 'application/json' } })]);
  return true;
}

/** One stored response of the account, or null (none, past its 30 days, or malformed). */
export async function getResponse(bucket: R2Bucket, accountId: string, id: string, now: number): Promise<StoredResponse | null> {
  if (!isResponseId(id)) return null;
  const object = await bucket.get(recordKey(accountId, id));
  if (!object) return null;
  const stored = (await object.json()) as StoredResponse;
  if (typeof stored.storedAt !== 'number' || now - stored.storedAt > RESPONSE_RETENTION_MS) return null;
  return stored;
}

export async function deleteResponse(bucket: R2Bucket, accountId: string, id: string): Promise<void> {
  await bucket.delete(recordKey(accountId, id));
}

/**
 * Cron: deletes responses stored more than RESPONSE_RETENTION_MS ago (a whole day early never:
 * a marker's day must end before the cut), at most `limit` per run, oldest first. Markers sort by
 * day, so the run stops at the first one still in its 30 days.
 */
export async function sweepResponses(bucket: R2Bucket, now: number, limit = 500): Promise<number> {
  const cutDay = new Date(now - RESPONSE_RETENTION_MS - DAY_MS).toISOString().slice(0, 10);
  let deleted = 0;
  let cursor: string | undefined;
  while (deleted < limit) {
    const page = await bucket.list({ prefix: markerPrefix, cursor, limit: Math.min(1000, limit - deleted) });
    const due = page.objects.filter((object) => object.key.slice(markerPrefix.length, markerPrefix.length + 10) <= cutDay).map((object) => object.key);
    if (due.length > 0) {
      const records = due.map((key) => `responses/${key.slice(markerPrefix.length + 11)}`);
      // Records before their markers: a run cut short leaves markers that the next run finishes.
      await bucket.delete(records);
      await bucket.delete(due);
      deleted += due.length;
    }
    if (due.length < page.objects.length || !page.truncated) break;
    cursor = page.cursor;
  }
  return deleted;
}
