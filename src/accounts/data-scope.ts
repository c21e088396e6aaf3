import type { AuthenticatedKey } from '../../durable-objects/account/types';

/**
 * D35: whose data a key reads. A sub-key sees only what it made itself (its requests, uploads,
 * generations, jobs): the answer is its key id, by which those reads filter; the account's other
 * keys see everything of the account (undefined: no filter), rows from before keys were recorded
 * included.
 */
export function ownDataOf(auth: AuthenticatedKey): string | undefined {
  return auth.subKey ? auth.keyId : undefined;
}
