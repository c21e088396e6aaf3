import type { HumanHolder, OpenClaimResult, ResetResult, ResetTerms } from './claim';
import { AccountManagement } from './account-management';
import type { JoinRefusal } from './membership';
import type { InviteTerms, MemberRow } from './organization';
import type { MemberHoldRequest, MemberKeySpend, NotMember, PoolGrant, PoolGrantRequest } from './org-protocol';
import type { MemberHoldReply } from './org-hold-channel';
import type { OwnerAction, OwnerActionResult, ReserveResult } from './org-owner';
import type { InviteRow, MemberDailySpendRow } from './org-usage';
import type { StoredRequest } from './requests';
import type { KeyRow } from './statements';
import type { CardReversal, CardRestoration, RestorationResult, ReversalResult, SuspensionView } from './suspension';
import type { SavedCard, TopUpRefusal, TopUpRule, TopUpView } from './top-up';
import type { AccountSnapshot, AuthFailure, HoldFailure, MemberView, Result, Spendable, SweepOutcome } from './types';

export { MAX_OPEN_HOLDS, type AccountParts } from './account-core';
export type { AdminView, NewAccount } from './account-management';

/** D29: joining or leaving changes what every key of the account spends, so a sub-key or a spend-limited key may not (as D27's minting). */
const mayChangeMembership = (key: KeyRow) =>
  key.parent_key_id === null && key.daily_limit_micros === null && key.monthly_limit_micros === null && key.total_limit_micros === null;

/**
 * The account's Durable Object as the runtime and callers meet it: the money path of `AccountCore`
 * (account-core.ts) and its creation, keys and views (`AccountManagement`, account-management.ts),
 * plus what people and other objects ask of an account beyond them, each a thin call into its
 * module: organizations (D29: a member's join and leave, an organization's invites, members and
 * their holds, its owner's dashboard), its human's claim and auto top-up, the operator's
 * suspension and card reversals, and the expiry sweep's last word.
 */
export class AccountDurableObject extends AccountManagement {
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

  // ---- D29, the organization's side: the operator, its owner, and its members' objects. ----

  /** Stores an invite (by hash) with its terms; its id, or null when this is not an organization. */
  async createInvite(hash: string, terms: InviteTerms): Promise<string | null> {
    return this.parts.organization.isOrganization ? this.parts.organization.createInvite(hash, terms, Date.now()) : null;
  }

  /** Revokes an invite; false for an unknown one. */
  async revokeInvite(inviteId: string): Promise<boolean> {
    return this.parts.organization.isOrganization && this.parts.organization.revokeInvite(inviteId, Date.now());
  }

  /** Approves a pending member; null when the account is not a pending or active member (or this is no organization). */
  async approveMember(memberAccountId: string): Promise<MemberRow | null> {
    return this.parts.organization.isOrganization ? this.parts.organization.approve(memberAccountId, Date.now()) : null;
  }

  /** Refuses a pending member or removes an active one; null when it is neither. */
  async removeMember(memberAccountId: string): Promise<MemberRow | null> {
    return this.parts.organization.isOrganization ? this.parts.organization.remove(memberAccountId, Date.now()) : null;
  }

  /** The members with their spend this month; null when this is not an organization. */
  async organizationMembers(): Promise<MemberRow[] | null> {
    return this.parts.organization.isOrganization ? this.parts.organization.members(Date.now()) : null;
  }

  /** The newest `limit` invites with their uses (the operator's listing); null when this is not an organization. */
  async organizationInvites(limit: number): Promise<InviteRow[] | null> {
    return this.parts.organization.isOrganization ? this.parts.orgUsage.invites(limit) : null;
  }

  // ---- D29 in the dashboard (org-owner.ts, org-usage.ts): a claimed account's human makes and runs organizations. ----

  /** In the would-be owner's account: a place for organization `organizationId`, taken before it is made. */
  async reserveOwnedOrganization(organizationId: string): Promise<ReserveResult> {
    return this.parts.ownership.reserve(organizationId, Date.now());
  }

  /** In the owner's account: the organizations its human made (each checks its owner itself). */
  async ownedOrganizations(): Promise<string[]> {
    return this.parts.memory.account ? this.parts.ownership.owned() : [];
  }

  /** Makes this object an organization owned by a claimed account (so it is claimed too: no unclaimed card cap). */
  async createOwnedOrganization(input: { accountId: string; name: string; claimTokenHash: string; fundToken: string; ownerAccountId: string }): Promise<AccountSnapshot> {
    const { ownerAccountId, ...organization } = input;
    await this.createOrganization(organization);
    this.parts.ownership.setOwner(ownerAccountId);
    this.parts.claim.markClaimed(Date.now());
    return this.parts.snapshot();
  }

  /** The organization as its owner's dashboard shows it; null unless this is an organization `ownerAccountId` owns. */
  async organizationForOwner(
    ownerAccountId: string,
    since: number,
  ): Promise<{ account: AccountSnapshot; members: MemberRow[]; invites: InviteRow[]; daily: MemberDailySpendRow[] } | null> {
    if (!this.parts.ownership.isOwnedBy(ownerAccountId)) return null;
    const now = Date.now();
    return { account: this.parts.snapshot(), members: this.parts.organization.members(now), invites: this.parts.orgUsage.invites(100), daily: this.parts.orgUsage.memberDailySpend(since) };
  }

  /** An owner's act (invite, revoke, approve, refuse or remove); not found unless `ownerAccountId` owns this organization. */
  async actAsOwner(ownerAccountId: string, action: OwnerAction): Promise<OwnerActionResult> {
    return this.parts.ownership.act(ownerAccountId, action, Date.now());
  }

  /** From a member's object: it joins with an invite's hash. */
  async joinAsMember(memberAccountId: string, inviteHash: string): Promise<Result<{ status: 'pending' | 'active' }, { reason: 'invalid_invite' }>> {
    if (!this.parts.memory.account) return { ok: false, reason: 'invalid_invite' };
    return this.parts.organization.join(memberAccountId, inviteHash, Date.now());
  }

  /** From a member's object: it has left. */
  async leftAsMember(memberAccountId: string): Promise<void> {
    if (this.parts.memory.account) this.parts.organization.left(memberAccountId, Date.now());
  }

  /**
   * From a member's object: holds money here for its requests, one batch per call
   * (`OrgHoldChannel`), each as `Organization.hold`; one hold's error is that hold's answer.
   */
  async holdsForMember(inputs: MemberHoldRequest[]): Promise<MemberHoldReply[]> {
    this.parts.calls.members(inputs.length);
    const now = Date.now();
    const replies = inputs.map((input): MemberHoldReply => {
      if (!this.parts.memory.account) return { ok: false, reason: 'not_member' };
      try {
        return this.parts.organization.hold(input, now);
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    });
    await this.parts.alarm.schedule();
    return replies;
  }

  /** From a member's object: holds placed ahead of its requests (its hold pool, org-hold-pool.ts). */
  async poolForMember(input: PoolGrantRequest): Promise<Result<PoolGrant, HoldFailure | NotMember>> {
    if (!this.parts.memory.account) return { ok: false, reason: 'not_member' };
    const granted = this.parts.organization.grantPool(input, Date.now());
    this.parts.calls.pool('poolForMember');
    await this.parts.alarm.schedule();
    return granted;
  }

  /** From a member's object: pooled holds it gives back unused; how many were open. */
  async returnPoolForMember(memberAccountId: string, holdIds: string[]): Promise<number> {
    if (!this.parts.memory.account) return 0;
    this.parts.calls.pool('returnPoolForMember');
    return this.parts.organization.returnPooled(memberAccountId, holdIds, Date.now());
  }

  /** From a member's object: what one of its keys could hold here (D25's quote). */
  async spendableForMember(input: Omit<MemberHoldRequest, 'request'>): Promise<Result<Spendable, HoldFailure | NotMember>> {
    if (!this.parts.memory.account) return { ok: false, reason: 'not_member' };
    return this.parts.organization.spendable(input, Date.now());
  }

  /** From a member's object: its keys' spend here (for `GET /agent/keys`, and after it left or was removed, for their limits). */
  async memberKeySpend(memberAccountId: string): Promise<MemberKeySpend> {
    return this.parts.organization.isOrganization ? this.parts.organization.memberKeySpend(memberAccountId, Date.now()) : { spend: [], openHolds: 0 };
  }

  /** From a member's object: what it sees of this organization. */
  async memberView(memberAccountId: string): Promise<MemberView | null> {
    return this.parts.organization.isOrganization ? this.parts.organization.memberView(memberAccountId, Date.now()) : null;
  }

  /** From a member's object: its record of a request it made here (D26); with `keyId` (D35), only that key's. */
  async memberRequest(memberAccountId: string, requestId: string, keyId?: string): Promise<StoredRequest | null> {
    return this.parts.organization.isOrganization ? this.parts.requests.find(requestId, memberAccountId, keyId) : null;
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
