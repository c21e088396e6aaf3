import { hashesEqual } from '../../src/accounts/credentials';
import type { AccountMemory } from './memory';
import { run, SQL } from './statements';

/**
 * The account's side of a human claim: the claim token (stored only as its SHA-256, checked in
 * constant time) and the moment a human claimed the account, after which it never expires and
 * the unclaimed card caps no longer apply. The claim's own state (codes, attempts, passkeys)
 * lives in D1 (`src/human/`); this module holds only what the account itself must know.
 */
export class ClaimState {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;

  constructor(storage: DurableObjectStorage, memory: AccountMemory) {
    this.#storage = storage;
    this.#memory = memory;
  }

  /** Whether `tokenHash` is this account's claim token; false when there is no account. */
  verify(tokenHash: string): boolean {
    if (!this.#memory.account) return false;
    const stored = run<{ claim_token_hash: string }>(this.#storage, SQL.claimTokenHash)[0]?.claim_token_hash;
    return stored !== undefined && hashesEqual(stored, tokenHash);
  }

  /** Marks the account claimed at `now`; a second call keeps the first time. False when there is no account. */
  markClaimed(now: number): boolean {
    const row = this.#memory.account;
    if (!row) return false;
    if (row.claimed_at !== null) return true;
    run(this.#storage, SQL.setClaimed, now);
    row.claimed_at = now;
    row.expires_at = null;
    return true;
  }
}
