import { hashesEqual } from '../../src/accounts/credentials';
import type { AccountMemory } from './memory';
import { run, SQL } from './statements';

/** Claim inits one account accepts per rolling hour (issue 20: an agent cannot mail-bomb through its claims). */
export const CLAIM_INITS_PER_HOUR = 3;
const HOUR_MS = 3_600_000;

/** The human who holds the account's passkeys and sessions: the claim that approved them. */
export interface HumanHolder {
  claimed: boolean;
  /** The approved claim whose passkeys and sessions work; null while unclaimed or after an operator reset. */
  humanClaimId: string | null;
}

export type OpenClaimResult = { ok: true } | { ok: false; reason: 'no_account' | 'claimed' } | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number };

/** Text of this module's statements (not on the hot path, so kept here rather than in `statements.ts`). */
const CLAIM_SQL = {
  holder: 'SELECT current_claim_id, human_claim_id FROM human_claim WHERE id = 1',
  setCurrent:
    'INSERT INTO human_claim (id, current_claim_id, human_claim_id) VALUES (1, ?, NULL) ON CONFLICT (id) DO UPDATE SET current_claim_id = excluded.current_claim_id',
  setHuman: 'UPDATE human_claim SET human_claim_id = ?, current_claim_id = NULL WHERE id = 1',
  reset: 'UPDATE human_claim SET human_claim_id = NULL, current_claim_id = NULL WHERE id = 1',
  dropOldInits: 'DELETE FROM claim_inits WHERE at <= ?',
  recentInits: 'SELECT at FROM claim_inits ORDER BY at',
  addInit: 'INSERT INTO claim_inits (at) VALUES (?)',
} as const;

/**
 * The account's side of a human claim, and the authority on it (D1's claim rows follow): the claim
 * token (stored only as its SHA-256, checked in constant time), which claim init opened last, and
 * which claim's human holds the account. Each method runs without awaiting, so the Durable Object
 * applies them one at a time: an approval and a new init can never interleave, and a claim is
 * approved only while it is still the account's current claim and nobody holds the account.
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

  /** Who holds the account; null without an account. */
  holder(): HumanHolder | null {
    const row = this.#memory.account;
    if (!row) return null;
    return { claimed: row.claimed_at !== null, humanClaimId: this.#row()?.human_claim_id ?? null };
  }

  /**
   * A new claim init: refused while a human holds the account, and past three accepted inits in
   * the last hour (Retry-After: when the oldest leaves the hour). Otherwise `claimId` becomes the
   * only claim that can be approved (the previous one can no longer finish).
   */
  open(claimId: string, now: number): OpenClaimResult {
    if (!this.#memory.account) return { ok: false, reason: 'no_account' };
    if (this.#row()?.human_claim_id) return { ok: false, reason: 'claimed' };
    const inits = this.#storage.sql.exec<{ at: number }>(CLAIM_SQL.recentInits).toArray().filter((r) => r.at > now - HOUR_MS);
    if (inits.length >= CLAIM_INITS_PER_HOUR) {
      const oldest = inits[inits.length - CLAIM_INITS_PER_HOUR]!.at;
      return { ok: false, reason: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil((oldest + HOUR_MS - now) / 1000)) };
    }
    this.#storage.transactionSync(() => {
      this.#storage.sql.exec(CLAIM_SQL.dropOldInits, now - HOUR_MS);
      this.#storage.sql.exec(CLAIM_SQL.addInit, now);
      this.#storage.sql.exec(CLAIM_SQL.setCurrent, claimId);
    });
    return { ok: true };
  }

  /**
   * The human finished claim `claimId`: approved only if it is still the account's current claim
   * and nobody holds the account; then its human holds it and the account is claimed (it never
   * expires). False otherwise: the caller must not leave anything of that claim usable.
   */
  approve(claimId: string, now: number): boolean {
    const row = this.#memory.account;
    const holder = this.#row();
    if (!row || !holder || holder.current_claim_id !== claimId || holder.human_claim_id !== null) return false;
    this.#storage.transactionSync(() => {
      this.#storage.sql.exec(CLAIM_SQL.setHuman, claimId);
      if (row.claimed_at === null) run(this.#storage, SQL.setClaimed, now);
    });
    if (row.claimed_at === null) {
      row.claimed_at = now;
      row.expires_at = null;
    }
    return true;
  }

  /** Operator reset: nobody holds the account any more (it stays claimed), and no open claim can finish. False without an account. */
  resetHuman(): boolean {
    if (!this.#memory.account) return false;
    this.#storage.sql.exec(CLAIM_SQL.reset);
    return true;
  }

  #row(): { current_claim_id: string | null; human_claim_id: string | null } | undefined {
    return this.#storage.sql.exec<{ current_claim_id: string | null; human_claim_id: string | null }>(CLAIM_SQL.holder).toArray()[0];
  }
}
