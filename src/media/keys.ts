/**
 * R2 key layout. Every object of an account lives under `<kind>/<account_id>/`, so deleting an
 * account is a prefix sweep; the rest of the key is random, so links cannot be guessed (D10).
 */
export const OBJECT_KINDS = ['uploads', 'outputs', 'results'] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

export function accountPrefix(kind: ObjectKind, accountId: string): string {
  return `${kind}/${accountId}/`;
}

/** Deletes every object an account owns, page by page. */
export async function deleteAccountObjects(bucket: R2Bucket, accountId: string): Promise<number> {
  let deleted = 0;
  for (const kind of OBJECT_KINDS) {
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ prefix: accountPrefix(kind, accountId), cursor });
      if (page.objects.length > 0) await bucket.delete(page.objects.map((object) => object.key));
      deleted += page.objects.length;
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
  }
  return deleted;
}
