import { AccountManagement } from './account-management';
import type { InviteTerms, MemberRow } from './organization';
import type { MemberHoldReply, MemberHoldRequest, MemberKeySpend, NotMember, OrganizationSide, PoolGrant, PoolGrantRequest } from './org-protocol';
import type { OwnerAction, OwnerActionResult, ReserveResult } from './org-owner';
import type { InviteRow, MemberDailySpendRow } from './org-usage';
import type { StoredRequest } from './requests';
import type { AccountSnapshot, HoldFailure, MemberView, Result, Spendable } from './types';

/**
 * D29, the organization's side of the account object: what the operator, its owner and its
 * members' objects ask of an organization (invites, members, their holds, pools and spend), each a
 * thin call into `Organization` (organization.ts) and its helpers. A member's object reaches it only
 * through `OrganizationSide` (org-protocol.ts); the member's own side stays in `AccountDurableObject`.
 */
export class OrganizationRole extends AccountManagement implements OrganizationSide {
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
}
