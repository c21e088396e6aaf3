import type { HumanHolder, OpenClaimResult, ResetResult, ResetTerms } from './claim';
import { OrganizationRole } from './organization-role';
import type { JoinRefusal } from './membership';
import type { KeyRow } from './statements';
import type { CardReversal, CardRestoration, RestorationResult, ReversalResult, SuspensionView } from './suspension';
import type { SavedCard, TopUpRefusal, TopUpRule, TopUpView } from './top-up';
import type { AccountSnapshot, AuthFailure, Result, SweepOutcome } from './types';

export { MAX_OPEN_HOLDS, type AccountParts } from './account-core';
export type { AdminView, NewAccount } from './account-management';

/** D29: joining or leaving changes what every key of the account spends, so a sub-key or a spend-limited key may not (as D27's minting). */
const mayChangeMembership = (key: KeyRow) =>
  key.parent_key_id === null && key.daily_limit_micros === null && key.monthly_limit_micros === null && key.total_limit_micros === null;

/**
 * The account's Durable Object as the runtime and callers meet it: the money path of `AccountCore`
 * (account-core.ts), its creation, keys and views (`AccountManagement`, account-management.ts), the
 * organization's side of D29 (`OrganizationRole`, organization-role.ts), plus what people and other objects ask of an account beyond them, each a thin call into its
 * module: organizations (D29: a member's join and leave, an organization's invites, members and
 * their holds, its owner's dashboard), its human's claim and auto top-up, the operator's
 * suspension and card reversals, and the expiry sweep's last word.
 */
export class AccountDurableObject extends OrganizationRole {
  // ---- D29, the member's side: called with one of its keys (`/agent/org/*`). ----

  /** Joins the organization an invite names (its hash checked there); idempotent for the same organization. */
  async joinOrganization(keyHash: string, organizationId: string, inviteHash: string): Promise<Result<{ organizationId: string; status: 'pending' | 'active' }, AuthFailure | JoinRefusal>> {
    const checked = this.parts.keys.check(keyHash, undefined, Date.now());
    if (!checked.ok) return checked;
    if (!mayChangeMembership(checked.key)) return { ok: false, reason: 'key_not_allowed' };
    return this.parts.membership.join(organizationId, inviteHash, Date.now());
  }

  /** Leaves the organization: from the next request on, the account spends its own balance. */
  async leaveOrganization(keyHash: string): Promise<Result<{ organizationId: string | null }, AuthFailure | JoinRefusal>> {
    const checked = this.parts.keys.check(keyHash, undefined, Date.now());
    if (!checked.ok) return checked;
    if (!mayChangeMembership(checked.key)) return { ok: false, reason: 'key_not_allowed' };
    // Forgotten here first (no request takes from the pool after this), then what the hold pool
    // keeps aside there goes back, so the organization counts no hold of it open for nothing.
    const current = this.parts.membership.organizationId;
    if (current !== null) {
      this.parts.membership.forget(current, Date.now());
      await this.parts.pool.giveBack(current, Date.now());
    }
    return { ok: true, organizationId: await this.parts.membership.leave(Date.now()) };
  }

  /** The sweep's last word: deletes everything unless the account was funded or claimed meanwhile. */
  async deleteIfExpired(now: number): Promise<SweepOutcome> {
    const row = this.parts.memory.account;
    if (row && (row.funded_at !== null || row.claimed_at !== null || row.expires_at === null || row.expires_at > now)) {
      return { deleted: false, fundedAt: row.funded_at, claimedAt: row.claimed_at, expiresAt: row.expires_at };
    }
    await this.parts.alarm.delete();
    await this.ctx.storage.deleteAll();
    this.parts.memory.clear();
    this.parts.topUp.clear();
    this.parts.keys.forgetCached();
    return { deleted: true };
  }

  // ---- The human: claims (claim.ts) and auto top-up (top-up.ts); the operator: suspension and card reversals (suspension.ts). ----

  /** The account, when `tokenHash` is its claim token or, after a reset, the operator's live one-time token (D36); null otherwise. */
  async accountForClaimToken(tokenHash: string): Promise<AccountSnapshot | null> {
    return this.parts.claim.verify(tokenHash, Date.now()) ? this.parts.snapshot() : null;
  }

  /** A human has claimed the account: it never expires and the card caps are lifted. Null without an account. */
  async markClaimed(now: number): Promise<AccountSnapshot | null> {
    return this.parts.claim.markClaimed(now) ? this.parts.snapshot() : null;
  }

  /**
   * Opens claim `claimId` for the token `tokenHash` (it alone can then be approved); refused while a
   * human holds the account or past the hourly limit, and after a reset as D36 says (`claim.ts`).
   */
  async openClaim(claimId: string, now: number, tokenHash = '', email: string | null = null): Promise<OpenClaimResult> {
    return this.parts.claim.open(claimId, now, tokenHash, email);
  }

  /** Approves claim `claimId` if it is still current, nobody holds the account and a reset's terms are met: atomically, its human then holds it. */
  async approveClaim(claimId: string, now: number, verifiedEmail: string | null = null): Promise<boolean> {
    return this.parts.claim.approve(claimId, now, verifiedEmail);
  }

  /** Who holds the account (the approved claim whose passkeys and sessions work); null without an account. */
  async humanHolder(): Promise<HumanHolder | null> {
    return this.parts.claim.holder();
  }

  /** Operator reset (D36): the human's passkeys and sessions stop working at once; the account stays claimed, and is claimed again only on `terms`. Null without an account. */
  async resetHuman(terms: ResetTerms): Promise<ResetResult | 'changed' | null> {
    return this.parts.claim.resetHuman(terms, Date.now());
  }

  /** D28: an operator suspends the account (every key refused, funding still works). Null without an account. */
  async suspend(reason: string, idempotencyKey: string): Promise<SuspensionView | null> {
    return this.parts.memory.account ? this.parts.suspension.suspend(reason, idempotencyKey, 'operator', Date.now()) : null;
  }

  /** An operator lifts a suspension; the state after it (null: not suspended). Undefined without an account. */
  async unsuspend(reason: string, idempotencyKey: string): Promise<{ suspended: SuspensionView | null } | undefined> {
    if (!this.parts.memory.account) return undefined;
    this.parts.suspension.unsuspend(reason, idempotencyKey, 'operator', Date.now());
    return { suspended: this.parts.suspension.view() };
  }

  /** Takes back a refunded or disputed card payment once per key; suspends when the balance cannot cover it. Null without an account. */
  async reverseCardPayment(reversal: CardReversal): Promise<ReversalResult | null> {
    return this.parts.memory.account ? this.parts.suspension.reverse(reversal, Date.now()) : null;
  }

  /** Credits back a reversal that did not stand (a failed refund, a dispute won), once. Null without an account. */
  async restoreCardPayment(restoration: CardRestoration): Promise<RestorationResult | null> {
    return this.parts.memory.account ? this.parts.suspension.restore(restoration, Date.now()) : null;
  }

  /** Auto top-up as the dashboard shows it; null without an account. */
  async topUpView(): Promise<TopUpView | null> {
    return this.parts.memory.account ? this.parts.topUp.view() : null;
  }

  /** Turns auto top-up on with `rule` (or changes it); refused without a saved card. Null without an account. */
  async enableTopUp(rule: TopUpRule): Promise<Result<{ view: TopUpView }, TopUpRefusal> | null> {
    return this.parts.memory.account ? this.parts.topUp.enable(rule, Date.now()) : null;
  }

  async disableTopUp(): Promise<TopUpView | null> {
    return this.parts.memory.account ? this.parts.topUp.disable(Date.now()) : null;
  }

  /** Saves the card of a completed Checkout for auto top-up. Null without an account. */
  async saveTopUpCard(card: SavedCard): Promise<TopUpView | null> {
    return this.parts.memory.account ? this.parts.topUp.saveCard(card, Date.now()) : null;
  }
}
