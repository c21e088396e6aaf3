import { randomBase62 } from '../../src/accounts/credentials';

export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(20)}`;
}

/**
 * An id that sorts by creation time, for rows written on every request: appended at the end of
 * the primary-key and ledger indexes instead of scattered through them, which keeps each commit to
 * a few pages.
 */
export function sortableId(prefix: string): string {
  return `${prefix}_${Date.now().toString(36).padStart(9, '0')}${randomBase62(12)}`;
}
