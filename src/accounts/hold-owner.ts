import { decodeAccountId, encodeAccountId } from './credentials';

/**
 * D29: a member's hold lives in its organization's Durable Object, and its id says so:
 * `oh_<organization id in base62>_<sortable part>`. Whoever settles, releases or renews a hold
 * (chat, streams, the settlement journal, lease renewals, scrape, media, video and web jobs)
 * finds the object that holds it from the id alone, so no stored job needs to know.
 */
const ORG_HOLD = /^oh_([0-9A-Za-z]{22})_/;

/** The prefix of an organization's member holds (`sortableId` appends the rest). */
export function orgHoldPrefix(organizationId: string): string {
  return `oh_${encodeAccountId(organizationId)}`;
}

/** Organization ids decoded from hold ids: an isolate sees few, and each request settles through one. */
const decoded = new Map<string, string | null>();
const MAX_DECODED = 256;

/** The account whose Durable Object holds `holdId`: its organization for a member's hold, else `accountId` itself. */
export function holdOwner(accountId: string, holdId: string): string {
  if (!holdId.startsWith('oh_')) return accountId;
  const part = ORG_HOLD.exec(holdId)?.[1];
  if (!part) return accountId;
  let organizationId = decoded.get(part);
  if (organizationId === undefined) {
    // The decoding is BigInt arithmetic, about as costly as the rest of a settlement's Worker side.
    if (decoded.size >= MAX_DECODED) decoded.clear();
    organizationId = decodeAccountId(part);
    decoded.set(part, organizationId);
  }
  return organizationId ?? accountId;
}
