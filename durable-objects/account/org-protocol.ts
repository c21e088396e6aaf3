import type { StoredRequest } from './requests';
import type { Hold, HoldFailure, HoldRequest, KeyLimit, MemberView, Result, Spendable } from './types';

/**
 * The organization protocol (D29): what a member account's Durable Object asks its
 * organization's, and what the answers carry. The member side (`membership.ts`,
 * `org-hold-pool.ts`, `org-peer.ts`) and the organization side (`organization.ts`) both import
 * these messages from here and nothing from each other, so either side can change inside
 * without the other.
 */

export type MemberHoldResult = Result<Hold, HoldFailure | NotMember>;
/** One hold's answer in a batch: its result, or the error that hold alone threw. */
export type MemberHoldReply = MemberHoldResult | { error: string };

/** D29: what a member account sends its organization to hold money for one of its requests. */
export interface MemberHoldRequest {
  memberAccountId: string;
  keyId: string;
  /** The key's spend limits as the member's own account counts them; the organization subtracts the key's spend and holds here. */
  keyLimits: KeyLimit[];
  request: Omit<HoldRequest, 'keyHash'>;
}

/** A member's keys' spend in an organization, per period, and how many of its holds may still be charged there. */
export interface MemberKeySpend {
  spend: { keyId: string; period: string; spentMicros: number }[];
  /** Open holds, and holds released at their deadline within LATE_CHARGE_WINDOW_MS that no settlement charged yet (a late one still may). */
  openHolds: number;
}

/** The organization does not count the caller a member (never joined, left, refused, removed). */
export type NotMember = { reason: 'not_member' };

/** What a member asks its organization to place for its pool. */
export interface PoolGrantRequest {
  memberAccountId: string;
  keyId: string;
  purpose: string;
  amountMicros: number;
  count: number;
  ttlMs: number;
  /** What the member's pool already keeps aside there: the pool as a whole stays within its bounds. */
  pooledMicros: number;
}

/** The holds placed (maybe fewer than asked, maybe none) and what the member could still hold there after them. */
export interface PoolGrant {
  holds: { holdId: string; amountMicros: number; expiresAt: number }[];
  availableMicros: number;
}

/** What a member account asks of its organization's Durable Object (DO-to-DO RPC). */
export interface OrgPeer {
  joinAsMember(memberAccountId: string, inviteHash: string): Promise<Result<{ status: 'pending' | 'active' }, { reason: 'invalid_invite' }>>;
  leftAsMember(memberAccountId: string): Promise<void>;
  memberKeySpend(memberAccountId: string): Promise<MemberKeySpend>;
  holdForMember(input: MemberHoldRequest): Promise<Result<Hold, HoldFailure | NotMember>>;
  grantPool(input: PoolGrantRequest): Promise<Result<PoolGrant, HoldFailure | NotMember>>;
  returnPooled(memberAccountId: string, holdIds: string[]): Promise<number>;
  spendableForMember(input: Omit<MemberHoldRequest, 'request'>): Promise<Result<Spendable, HoldFailure | NotMember>>;
  memberView(memberAccountId: string): Promise<MemberView | null>;
  memberRequest(memberAccountId: string, requestId: string, keyId?: string): Promise<StoredRequest | null>;
}

/**
 * The organization's side as a member's object calls it over RPC (`OrganizationRole`); `OrgPeer`
 * is the same conversation as the member's side holds it.
 */
export interface OrganizationSide {
  joinAsMember(memberAccountId: string, inviteHash: string): Promise<Result<{ status: 'pending' | 'active' }, { reason: 'invalid_invite' }>>;
  leftAsMember(memberAccountId: string): Promise<void>;
  holdsForMember(inputs: MemberHoldRequest[]): Promise<MemberHoldReply[]>;
  poolForMember(input: PoolGrantRequest): Promise<Result<PoolGrant, HoldFailure | NotMember>>;
  returnPoolForMember(memberAccountId: string, holdIds: string[]): Promise<number>;
  spendableForMember(input: Omit<MemberHoldRequest, 'request'>): Promise<Result<Spendable, HoldFailure | NotMember>>;
  memberKeySpend(memberAccountId: string): Promise<MemberKeySpend>;
  memberView(memberAccountId: string): Promise<MemberView | null>;
  memberRequest(memberAccountId: string, requestId: string, keyId?: string): Promise<StoredRequest | null>;
}
