/**
 * R2 key layout. Every object of an account lives under `<kind>/<account_id>/`, so deleting an
 * account is a prefix sweep; the rest of the key is random, so links cannot be guessed (D10).
 */
export const OBJECT_KINDS = ['uploads', 'outputs', 'results'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** R2's longest key, in UTF-8 bytes: a longer one is not a missing object but an error from the binding. */
const MAX_KEY_BYTES = 1024;

/** Whether `key` can name a hosted object: one of our kinds, and short enough for R2. */
export function isHostedKey(key: string): boolean {
  return OBJECT_KINDS.some((kind) => key.startsWith(`${kind}/`)) && new TextEncoder().encode(key).byteLength <= MAX_KEY_BYTES;
}

/** The key in the percent-encoded path of a link to `/files/`, or null when it cannot name a hosted object. */
export function hostedKey(encodedPath: string): string | null {
  let key: string;
  try {
    key = decodeURIComponent(encodedPath);
  } catch {
    return null; // a malformed escape such as a lone `%`
  }
  return isHostedKey(key) ? key : null;
}

export function accountPrefix(kind: ObjectKind, accountId: string): string {
  return `${kind}/${accountId}/`;
}

/**
 * Deletes every object an account owns, page by page: its hosted kinds, and its stored chat
 * responses (`responses/<account_id>/`, never served by `/files/`; their day markers go with the
 * 30-day sweep).
 */
export async function deleteAccountObjects(bucket: R2Bucket, accountId: string): Promise<number> {
  let deleted = 0;
  for (const prefix of [...OBJECT_KINDS.map((kind) => accountPrefix(kind, accountId)), `responses/${accountId}/`]) {
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix, cursor });
      if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
      deleted += page.objects.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return deleted;
}
