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

/** What a claim init may bind: the address its code goes to (the one on record after a reset, D36), or none. */
export type OpenClaimResult =
  | { ok: true; email: string | null }
  | { ok: false; reason: 'no_account' | 'claimed' | 'needs_operator_token' | 'email_not_on_record' }
  | { ok: false; reason: 'rate_limited'; retryAfterSeconds: number };

/** D36: what an operator reset asks of the next claim. */
export interface ResetTerms {
  /** The reset human's verified address, when one is on record. */
  email: string | null;
  /** Whether the gateway can mail that address; if not, the one-time token is the way back. */
  canMail: boolean;
  /** The one-time claim token (SHA-256) stored when no address can be mailed, and when it stops working. */
  tokenHash: string;
  tokenExpiresAt: number;
  /** The holder `email` was read for: the reset is refused ('changed') if another holds the account by now. */
  expectedHolder: string | null;
}

/** D36: how a reset account can be claimed again: by the code mailed to `email`, or by the one-time token just issued. */
export type ResetResult = { email: string; token: false } | { email: null; token: true };

type HolderRow = {
  current_claim_id: string | null;
  human_claim_id: string | null;
  reset_at: number | null;
  reclaim_email: string | null;
  reclaim_token_hash: string | null;
  reclaim_token_expires_at: number | null;
};

/** Text of this module's statements (not on the hot path, so kept here rather than in `statements.ts`). */
const CLAIM_SQL = {
  holder: 'SELECT current_claim_id, human_claim_id, reset_at, reclaim_email, reclaim_token_hash, reclaim_token_expires_at FROM human_claim WHERE id = 1',
  setCurrent:
    'INSERT INTO human_claim (id, current_claim_id, human_claim_id) VALUES (1, ?, NULL) ON CONFLICT (id) DO UPDATE SET current_claim_id = excluded.current_claim_id',
  /** The approved claim's human holds the account; a reset's terms end with it (the one-time token is spent). */
  setHuman:
    'UPDATE human_claim SET human_claim_id = ?, current_claim_id = NULL, reset_at = NULL, reclaim_email = NULL, reclaim_token_hash = NULL, reclaim_token_expires_at = NULL WHERE id = 1',
  reset:
    'INSERT INTO human_claim (id, current_claim_id, human_claim_id, reset_at, reclaim_email, reclaim_token_hash, reclaim_token_expires_at) VALUES (1, NULL, NULL, ?, ?, ?, ?) ' +
    'ON CONFLICT (id) DO UPDATE SET current_claim_id = NULL, human_claim_id = NULL, reset_at = excluded.reset_at, reclaim_email = excluded.reclaim_email, ' +
    'reclaim_token_hash = excluded.reclaim_token_hash, reclaim_token_expires_at = excluded.reclaim_token_expires_at',
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
 * After an operator reset (D36) the claim token alone claims nothing: a claim is then bound to the
 * reset human's verified address and approved only once that address's code was entered, or,
 * with no address on record, opened only with the operator's one-time token, spent by the approval.
 */
export class ClaimState {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;

  constructor(storage: DurableObjectStorage, memory: AccountMemory) {
    this.#storage = storage;
    this.#memory = memory;
  }

  /**
   * Which of this account's claim tokens `tokenHash` is (constant-time): the agent's own, or the
   * operator's one-time one after a reset (D36) until it expires or claims; null for neither.
   */
  verify(tokenHash: string, now: number): 'original' | 'operator' | null {
    if (!this.#memory.account) return null;
    const stored = run<{ claim_token_hash: string }>(this.#storage, SQL.claimTokenHash)[0]?.claim_token_hash;
    if (stored !== undefined && hashesEqual(stored, tokenHash)) return 'original';
    const row = this.#row();
    const live = row?.reclaim_token_hash && row.reclaim_token_expires_at !== null && now < row.reclaim_token_expires_at;
    return live && hashesEqual(row.reclaim_token_hash!, tokenHash) ? 'operator' : null;
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
   * A new claim init with the token `tokenHash` (as `verify` found it), asking to bind `email`:
   * refused while a human holds the account, and past three accepted inits in the last hour
   * (Retry-After: when the oldest leaves the hour). After a reset (D36) the claim is bound to the
   * address on record (another one is refused), or, with none, needs the operator's token.
   * Otherwise `claimId` becomes the only claim that can be approved (the previous one can no longer finish).
   */
  open(claimId: string, now: number, tokenHash: string, email: string | null): OpenClaimResult {
    if (!this.#memory.account) return { ok: false, reason: 'no_account' };
    const row = this.#row();
    if (row?.human_claim_id) return { ok: false, reason: 'claimed' };
    let bind = email;
    if (row && row.reset_at !== null) {
      if (row.reclaim_token_hash === null && row.reclaim_email !== null) {
        if (email !== null && email !== row.reclaim_email) return { ok: false, reason: 'email_not_on_record' };
        bind = row.reclaim_email;
      } else if (this.verify(tokenHash, now) !== 'operator') {
        // Reset before D36 (neither recorded), or with no address on record: only the operator's token opens a claim.
        return { ok: false, reason: 'needs_operator_token' };
      }
    }
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
    return { ok: true, email: bind };
  }

  /**
   * The human finished claim `claimId`, whose code mailed to `verifiedEmail` was entered (null
   * for none): approved only if it is still the account's current claim, nobody holds the
   * account and, after a reset mailed to an address on record, `verifiedEmail` is that address
   * (D36). Then its human holds it and the account is claimed (it never expires); a reset's
   * one-time token is spent. False otherwise: the caller must not leave anything of that claim usable.
   */
  approve(claimId: string, now: number, verifiedEmail: string | null = null): boolean {
    const row = this.#memory.account;
    const holder = this.#row();
    if (!row || !holder || holder.current_claim_id !== claimId || holder.human_claim_id !== null) return false;
    if (holder.reset_at !== null && holder.reclaim_token_hash === null && (verifiedEmail === null || verifiedEmail !== holder.reclaim_email)) return false;
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

  /**
   * Operator reset (D36): nobody holds the account any more (it stays claimed), no open claim can
   * finish, and the next claim needs the code mailed to the reset human's verified address (the
   * one an earlier reset recorded, else the one given), or, with none the gateway can mail, the
   * one-time token `terms.tokenHash`. Null without an account.
   */
  resetHuman(terms: ResetTerms, now: number): ResetResult | 'changed' | null {
    if (!this.#memory.account) return null;
    const row = this.#row();
    if ((row?.human_claim_id ?? null) !== terms.expectedHolder) return 'changed';
    // Once reset, the address recorded then stays the one on record (`terms.email` is D1's fallback for an account reset before D36).
    const email = row?.reclaim_email ?? terms.email;
    const byMail = email !== null && terms.canMail;
    this.#storage.sql.exec(CLAIM_SQL.reset, now, email, byMail ? null : terms.tokenHash, byMail ? null : terms.tokenExpiresAt);
    return byMail ? { email, token: false } : { email: null, token: true };
  }

  #row(): HolderRow | undefined {
    return this.#storage.sql.exec<HolderRow>(CLAIM_SQL.holder).toArray()[0];
  }
}
