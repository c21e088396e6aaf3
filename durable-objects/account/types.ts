import type { RequestRecord, StoredRequest } from './requests';
import type { CreditSource, LedgerKind, RouteClass } from './schema';

export { ROUTE_CLASSES, type RouteClass } from './schema';

/** Why a key may not spend; the Worker maps each to one wire error (`src/accounts/failures.ts`). */
export type AuthFailure =
  | { reason: 'invalid_key' }
  | { reason: 'revoked' }
  | { reason: 'expired' }
  | { reason: 'account_suspended'; /** D29: the suspended account is the organization the member spends from. */ organizationId?: string }
  | { reason: 'model_not_allowed'; model: string }
  | { reason: 'route_not_allowed'; route: RouteClass | 'unclassified' };

export type HoldFailure =
  | AuthFailure
  | { reason: 'insufficient_credits'; availableMicros: number; neededMicros: number; fundToken: string | null }
  | { reason: 'daily_limit' | 'monthly_limit' | 'total_limit'; remainingMicros: number; retryAfterSeconds: number }
  | { reason: 'too_many_holds'; openHolds: number }
  | { reason: 'rate_limited'; perMinute: number; retryAfterSeconds: number }
  | OrgHoldFailure;

/** D29: why an organization refuses a member's hold (the funding named is the organization's). */
export type OrgHoldFailure =
  | { reason: 'membership_pending'; organizationId: string }
  | { reason: 'insufficient_org_credits'; organizationId: string; availableMicros: number; neededMicros: number; fundToken: string | null }
  | { reason: 'member_cap_exceeded'; organizationId: string; remainingMicros: number; neededMicros: number; capMicros: number; retryAfterSeconds: number; fundToken: string | null };

/** D29: one of a member key's spend limits with what it still allows in the member's own account, named by period. */
export interface KeyLimit {
  reason: 'daily_limit' | 'monthly_limit' | 'total_limit';
  /** `d:YYYY-MM-DD`, `m:YYYY-MM` or `total`. */
  period: string;
  remainingMicros: number;
  retryAfterSeconds: number;
  /** D35: the keys whose spend and holds count against this limit (a key and the keys below it); absent: the key held for alone. */
  keyIds?: string[];
}

export type Result<T, F> = ({ ok: true } & T) | ({ ok: false } & F);

export interface KeyGuardrails {
  dailyLimitMicros?: number | null;
  monthlyLimitMicros?: number | null;
  totalLimitMicros?: number | null;
  allowedModels?: string[] | null;
  /** ms since epoch */
  expiresAt?: number | null;
}

export interface KeyRecord extends Required<KeyGuardrails> {
  id: string;
  name: string;
  hint: string;
  createdAt: number;
  revokedAt: number | null;
  /** D27: the route classes the key may use; null allows every route. */
  allowedRoutes: RouteClass[] | null;
  /** D27: the key that minted this sub-key through `POST /agent/keys`; null for the account's own keys. */
  parentKeyId: string | null;
}

export interface AuthorizedKey {
  accountId: string;
  keyId: string;
}

/** A key checked for a route that spends nothing; D35: a sub-key sees only its own data there. */
export interface AuthenticatedKey extends AuthorizedKey {
  subKey: boolean;
}

export interface HoldRequest {
  keyHash: string;
  /** Model slug checked against the key's allowlist; omit for routes without a model. */
  model?: string;
  /** Chat's fallback models (D34 `models`): each checked against the allowlist as `model` is (D35). */
  fallbackModels?: string[];
  /**
   * The route class checked against the key's `allowed_routes` (D27). Every billed route names
   * one; a hold without it is refused to a key limited to some routes (fail closed).
   */
  route?: RouteClass;
  /** The hold is refused below this amount. */
  minMicros: number;
  /** The worst case; the hold is lowered toward `minMicros` when the balance cannot cover it (D5). */
  maxMicros: number;
  /** What the hold is for, kept on the hold and the ledger (`chat:openai/gpt-4o`). */
  purpose: string;
  /** The hold's deadline from now: released unsettled by the alarm after it, unless extended (crashed callers). */
  ttlMs?: number;
  /** The gateway request the hold covers, kept on the hold and its ledger rows. */
  requestId?: string;
  /** At most this many holds of this purpose per minute for the account (a free model: the demo's limit); counted in memory. */
  perMinute?: number;
}

export interface Hold extends AuthorizedKey {
  holdId: string;
  amountMicros: number;
  /** What this key may still hold after this one: the balance minus every open hold, or its spend limit's headroom when lower. */
  availableMicros: number;
}

/** What a key could hold now, without holding it (D25's quote). */
export interface Spendable extends AuthorizedKey {
  /** The balance less open holds, or the key's spend-limit headroom when lower. */
  availableMicros: number;
  /** The account's own available balance, whatever the key's limits. */
  accountAvailableMicros: number;
  fundToken: string | null;
  /** D29: set when the money is an organization's, whose member this key's account is. */
  organizationId?: string;
}

export interface Settlement {
  holdId: string;
  chargedMicros: number;
  balanceMicros: number;
  /** False when this exact settlement had been applied before (a repeated delivery). */
  applied: boolean;
}

export interface CreditRequest {
  amountMicros: number;
  idempotencyKey: string;
  source: CreditSource;
  note?: string;
}

export interface AccountSnapshot {
  accountId: string;
  createdAt: number;
  balanceMicros: number;
  heldMicros: number;
  claimed: boolean;
  funded: boolean;
  expiresAt: number | null;
  /** Card funding still allowed while unclaimed; null once claimed. */
  unclaimedFundingRemainingMicros: number | null;
  /** The fund link's token (D22); null for an account made before fund links had one. */
  fundToken: string | null;
  /** D28: set while every key of the account is refused; funding still works. */
  suspended: { at: number; reason: string } | null;
  /** D29: `organization` for an organization. */
  kind: 'account' | 'organization';
  /** D29: an organization's name; null for an account. */
  name: string | null;
  /** D29: the organization a member account spends from (`GET /agent/account`); absent otherwise. */
  organization?: MemberView;
}

/** D29: a member as its organization sees it, shown to that member. */
export interface MemberView {
  organizationId: string;
  name: string | null;
  status: 'pending' | 'active';
  /** Per UTC calendar month; null for no cap. */
  capMicros: number | null;
  spentThisMonthMicros: number;
}

export interface LedgerEntry {
  seq: number;
  kind: LedgerKind;
  amountMicros: number;
  balanceAfterMicros: number;
  holdId: string | null;
  keyId: string | null;
  source: string | null;
  note: string | null;
  requestId: string | null;
  createdAt: number;
  /** D29, in an organization: the member account whose request it was (`keyId` is that member's key). */
  memberAccountId: string | null;
}

/** A page of the ledger, newest first; `nextBefore` continues it (null on the last page). */
export interface LedgerPage {
  entries: LedgerEntry[];
  nextBefore: number | null;
}

/** An open hold as an operator sees it. */
export interface OpenHoldView {
  holdId: string;
  keyId: string | null;
  amountMicros: number;
  purpose: string;
  requestId: string | null;
  createdAt: number;
  expiresAt: number;
}

export interface ExtendResult {
  /** False when the hold is no longer open (settled, released or expired). */
  extended: boolean;
  /** The hold's deadline after the call; null when it is not open. */
  expiresAt: number | null;
}

export type SweepOutcome =
  | { deleted: true }
  | { deleted: false; fundedAt: number | null; claimedAt: number | null; expiresAt: number | null };

export type SettleResult = Result<Settlement, { reason: 'unknown_hold' | 'hold_released' }>;

export interface ReleaseResult {
  released: boolean;
  balanceMicros: number;
}

/** One call inside a batch (`AccountDurableObject.apply`); `sync` does nothing but keep the order. */
export type AccountOp =
  | { op: 'hold'; request: HoldRequest }
  | { op: 'settle'; holdId: string; chargeMicros: number; record?: RequestRecord }
  | { op: 'release'; holdId: string; record?: RequestRecord }
  | { op: 'extend'; holdId: string; ttlMs: number }
  | { op: 'authenticate'; keyHash: string; route?: RouteClass }
  | { op: 'account'; keyHash: string; route?: RouteClass }
  | { op: 'spendable'; keyHash: string; model?: string; route: RouteClass }
  | { op: 'request'; keyHash: string; requestId: string }
  | { op: 'sync' };

/** What each kind of call answers, the same as the Durable Object's method of that name. */
export interface AccountOpResults {
  hold: Result<Hold, HoldFailure>;
  settle: SettleResult;
  release: ReleaseResult;
  extend: ExtendResult;
  authenticate: Result<AuthenticatedKey, AuthFailure>;
  account: Result<{ account: AccountSnapshot; keyId: string }, AuthFailure>;
  spendable: Result<Spendable, HoldFailure>;
  request: Result<{ request: StoredRequest }, AuthFailure | { reason: 'not_found' }>;
  sync: null;
}

export type AccountOpReply = AccountOpResults[AccountOp['op']] | { error: string };

export interface BatchReply {
  results: AccountOpReply[];
  /** The balance after the whole batch. */
  balanceMicros: number;
}
