import { hashesEqual } from '../../src/accounts/credentials';
import { orgHoldPrefix } from '../../src/accounts/hold-owner';
import { MAX_INVITE_USES } from '../../src/accounts/invite-limits';
import { isLongLived, MAX_OPEN_HOLDS, MEMBER_OPEN_HOLDS_SHARE } from './holds';
import { newId, sortableId } from './ids';
import type { MemberHoldRequest, MemberKeySpend, NotMember, PoolGrant, PoolGrantRequest } from './org-protocol';
import type { Ledger } from './ledger';
import type { AccountMemory } from './memory';
import { spendPeriods } from './periods';
import type { MemberStatus } from './schema';
import { tightest, type SpendCounters } from './spend';
import { RateWindow } from './rate-window';
import { run, SQL } from './statements';
import type { Hold, HoldFailure, HoldRequest, KeyLimit, MemberView, Result, Spendable } from './types';

/**
 * How long after a member's hold expired unsettled its late settlement is still expected (the
 * settlement journal retries every 30 s until the account answers): until then, a member that
 * left keeps asking for its keys' spend here, so the charge counts toward their limits.
 */
const LATE_CHARGE_WINDOW_MS = 60 * 60 * 1000;

export interface InviteTerms {
  capMicros: number | null;
  autoApprove: boolean;
  /** How many accounts may join with it (MAX_INVITE_USES at most), so one code cannot hand many accounts a cap each. */
  maxUses: number;
}

export interface MemberRow {
  accountId: string;
  status: MemberStatus;
  capMicros: number | null;
  joinedAt: number;
  approvedAt: number | null;
  leftAt: number | null;
  spentThisMonthMicros: number;
}

type Row = {
  account_id: string;
  status: MemberStatus;
  cap_micros: number | null;
  invite_id: string | null;
  joined_at: number;
  approved_at: number | null;
  left_at: number | null;
};

/** D29: a member's hold pool takes at most this share (1/8) of what the member could hold here... */
const POOL_ROOM_SHARE = 8;
/** ... and at most $5 in all. */
const POOL_MAX_MICROS = 5_000_000;

const CURRENT: ReadonlySet<MemberStatus> = new Set(['pending', 'active']);

/**
 * An organization's side of D29, in its own Durable Object: its members (status, monthly cap),
 * its invites (SHA-256 only, each good for `max_uses` joins until revoked) and the member holds. A member hold is
 * decided here, synchronously, so every member's requests are serialized at one point: the
 * organization's available balance, the member's monthly cap (its charges this UTC month plus its
 * open holds here) and its key's limits (what the member's account left, less the key's spend and
 * holds here) all bound it.
 */
export class Organization {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;
  readonly #rate = new RateWindow();
  readonly #ledger: Ledger;
  readonly #spend: SpendCounters;
  /** Member rows as last read (null: none), so a hold reads no SQL for it; every write to `org_members` drops its entry. */
  readonly #members = new Map<string, Row | null>();

  constructor(storage: DurableObjectStorage, memory: AccountMemory, ledger: Ledger, spend: SpendCounters) {
    this.#storage = storage;
    this.#memory = memory;
    this.#ledger = ledger;
    this.#spend = spend;
  }

  get isOrganization(): boolean {
    return this.#memory.account?.kind === 'organization';
  }

  /** Stores an invite by its hash; its id (`inv_...`) is what revocation names. */
  createInvite(hash: string, terms: InviteTerms, now: number): string {
    if (!Number.isSafeInteger(terms.maxUses) || terms.maxUses < 1 || terms.maxUses > MAX_INVITE_USES) throw new Error(`invalid invite max_uses ${terms.maxUses}`);
    const id = newId('inv');
    this.#storage.sql.exec(
      'INSERT INTO org_invites (id, hash, cap_micros, auto_approve, created_at, uses, max_uses) VALUES (?, ?, ?, ?, ?, 0, ?)',
      id,
      hash,
      terms.capMicros,
      terms.autoApprove ? 1 : 0,
      now,
      terms.maxUses,
    );
    return id;
  }

  /** Revokes an invite: it joins nobody from now on (members who joined with it stay). False for an unknown invite. */
  revokeInvite(inviteId: string, now: number): boolean {
    return this.#storage.sql.exec('UPDATE org_invites SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?', now, inviteId).rowsWritten > 0;
  }

  /**
   * A member joins with an invite (its hash, compared in constant time). Idempotent: a pending or
   * active member keeps its status and cap (and uses nothing). One that left rejoins on the
   * invite's terms; one that was refused or removed may only ask again (pending). An account's
   * first join with an invite takes one of its `max_uses`, in the same step as the membership: two
   * joins racing for the last use cannot both pass. A used-up invite is refused as a revoked one is.
   */
  join(memberAccountId: string, inviteHash: string, now: number): Result<{ status: 'pending' | 'active' }, { reason: 'invalid_invite' }> {
    if (!this.isOrganization || memberAccountId === this.#memory.account!.id) return { ok: false, reason: 'invalid_invite' };
    const [invite] = this.#storage.sql
      .exec<{ id: string; hash: string; cap_micros: number | null; auto_approve: number; revoked_at: number | null; uses: number; max_uses: number | null }>(
        'SELECT id, hash, cap_micros, auto_approve, revoked_at, uses, max_uses FROM org_invites WHERE hash = ?',
        inviteHash,
      )
      .toArray();
    if (!invite || !hashesEqual(invite.hash, inviteHash) || invite.revoked_at !== null) return { ok: false, reason: 'invalid_invite' };
    const member = this.#row(memberAccountId);
    if (member && (member.status === 'pending' || member.status === 'active')) return { ok: true, status: member.status };
    // An account that joined with this invite before (and left, or was refused or removed) takes no second use.
    const takesUse = member?.invite_id !== invite.id;
    if (takesUse && invite.max_uses !== null && invite.uses >= invite.max_uses) return { ok: false, reason: 'invalid_invite' };
    const status = invite.auto_approve === 1 && (!member || member.status === 'left') ? 'active' : 'pending';
    this.#storage.transactionSync(() => this.#admit(memberAccountId, status, invite, takesUse, now));
    this.#members.delete(memberAccountId);
    return { ok: true, status };
  }

  /** Writes the membership and takes one use of its invite when `takesUse` (one transaction). */
  #admit(memberAccountId: string, status: 'pending' | 'active', invite: { id: string; cap_micros: number | null }, takesUse: boolean, now: number): void {
    if (takesUse) this.#storage.sql.exec('UPDATE org_invites SET uses = uses + 1 WHERE id = ?', invite.id);
    this.#storage.sql.exec(
      'INSERT INTO org_members (account_id, status, cap_micros, invite_id, joined_at, approved_at, left_at) VALUES (?, ?, ?, ?, ?, ?, NULL) ' +
        'ON CONFLICT (account_id) DO UPDATE SET status = excluded.status, cap_micros = excluded.cap_micros, invite_id = excluded.invite_id, joined_at = excluded.joined_at, approved_at = excluded.approved_at, left_at = NULL',
      memberAccountId,
      status,
      invite.cap_micros,
      invite.id,
      now,
      status === 'active' ? now : null,
    );
  }

  /** Approves a pending member (an active one stays active); null when the account is not a pending or active member. */
  approve(memberAccountId: string, now: number): MemberRow | null {
    const member = this.#row(memberAccountId);
    if (!member || !CURRENT.has(member.status)) return null;
    if (member.status === 'pending') this.#storage.sql.exec("UPDATE org_members SET status = 'active', approved_at = ? WHERE account_id = ?", now, memberAccountId);
    this.#members.delete(memberAccountId);
    return this.member(memberAccountId, now);
  }

  /** Refuses a pending member or removes an active one (its open holds here still settle); null when it is neither. */
  remove(memberAccountId: string, now: number): MemberRow | null {
    const member = this.#row(memberAccountId);
    if (!member || !CURRENT.has(member.status)) return null;
    const status: MemberStatus = member.status === 'pending' ? 'refused' : 'removed';
    this.#storage.sql.exec('UPDATE org_members SET status = ?, left_at = ? WHERE account_id = ?', status, now, memberAccountId);
    this.#members.delete(memberAccountId);
    return this.member(memberAccountId, now);
  }

  /** The member has left (its own account has already forgotten the organization). Idempotent. */
  left(memberAccountId: string, now: number): void {
    this.#storage.sql.exec("UPDATE org_members SET status = 'left', left_at = ? WHERE account_id = ? AND status IN ('pending', 'active')", now, memberAccountId);
    this.#members.delete(memberAccountId);
  }

  /**
   * What each of a member's keys was charged here, per period (`total`, `d:...`, `m:...`), and how
   * many of its holds may still be charged here (open, or expired uncharged within
   * LATE_CHARGE_WINDOW_MS): its limits keep counting this spend after it leaves, and it asks again
   * until none is left.
   */
  memberKeySpend(memberAccountId: string, now: number): MemberKeySpend {
    const spend = this.#storage.sql
      .exec<{ key_id: string; period: string; spent_micros: number }>('SELECT key_id, period, spent_micros FROM member_spend WHERE account_id = ?', memberAccountId)
      .toArray()
      .map((row) => ({ keyId: row.key_id, period: row.period, spentMicros: row.spent_micros }));
    const expired = run<{ count: number }>(this.#storage, SQL.memberExpiredUnsettled, memberAccountId, now - LATE_CHARGE_WINDOW_MS)[0]?.count ?? 0;
    return { spend, openHolds: this.#memory.holds.openByMember(memberAccountId) + expired };
  }

  /** One member with its spend this UTC month; null for an account that never joined. */
  member(memberAccountId: string, now: number): MemberRow | null {
    const row = this.#row(memberAccountId);
    return row ? this.#view(row, now) : null;
  }

  /** Every member, oldest first, with its spend this month (the operator's and the dashboard's list). */
  members(now: number): MemberRow[] {
    return this.#storage.sql
      .exec<Row>('SELECT account_id, status, cap_micros, invite_id, joined_at, approved_at, left_at FROM org_members ORDER BY joined_at')
      .toArray()
      .map((row) => this.#view(row, now));
  }

  /** What a pending or active member sees of the organization (`GET /agent/account`); null otherwise. */
  memberView(memberAccountId: string, now: number): MemberView | null {
    const row = this.#row(memberAccountId);
    if (!row || (row.status !== 'pending' && row.status !== 'active')) return null;
    return {
      organizationId: this.#memory.account!.id,
      name: this.#memory.account!.name,
      status: row.status,
      capMicros: row.cap_micros,
      spentThisMonthMicros: this.#spentThisMonth(memberAccountId, now),
    };
  }

  /**
   * Holds money for a member's request here: `maxMicros` when the organization's available
   * balance, the member's cap and its key's limits allow it, else the most they allow down to
   * `minMicros`, else the binding refusal (the key's limit first, then the cap, then the balance).
   */
  hold(input: MemberHoldRequest, now: number): Result<Hold, HoldFailure | NotMember> {
    const { request, memberAccountId, keyId } = input;
    const { minMicros, maxMicros } = request;
    if (!Number.isSafeInteger(minMicros) || !Number.isSafeInteger(maxMicros) || minMicros < 0 || maxMicros < minMicros) {
      throw new Error(`invalid hold: min ${minMicros}, max ${maxMicros} micro-dollars`);
    }
    const org = this.#memory.account;
    if (!org || org.kind !== 'organization') return { ok: false, reason: 'not_member' };
    const member = this.#row(memberAccountId);
    if (!member || !CURRENT.has(member.status)) return { ok: false, reason: 'not_member' };
    if (member.status === 'pending') return { ok: false, reason: 'membership_pending', organizationId: org.id };
    if (org.suspended_at !== null) return { ok: false, reason: 'account_suspended', organizationId: org.id };
    const holds = this.#memory.holds;
    const full = holds.fullForMember(request.purpose, memberAccountId);
    if (full !== null) return { ok: false, reason: 'too_many_holds', openHolds: full };
    // A free model's rate (the demo's) is per member account, as it is per account outside organizations.
    const { perMinute } = request;
    const rateKey = `${memberAccountId} ${request.purpose}`;
    const wait = perMinute === undefined ? null : this.#rate.wait(rateKey, perMinute, now);
    if (perMinute !== undefined && wait !== null) return { ok: false, reason: 'rate_limited', perMinute, retryAfterSeconds: wait };

    const key = this.#keyRoom(input);
    if (key && key.remainingMicros < minMicros) return { ok: false, ...key };

    let capRoom = Infinity;
    if (member.cap_micros !== null) {
      capRoom = Math.max(0, member.cap_micros - this.#spentThisMonth(memberAccountId, now) - holds.heldByMember(memberAccountId));
      if (capRoom < minMicros) {
        return {
          ok: false,
          reason: 'member_cap_exceeded',
          organizationId: org.id,
          remainingMicros: capRoom,
          neededMicros: minMicros,
          capMicros: member.cap_micros,
          retryAfterSeconds: spendPeriods(now).secondsToNextMonth,
          fundToken: org.fund_token,
        };
      }
    }
    const available = org.balance_micros - holds.heldMicros;
    if (available < minMicros) {
      return { ok: false, reason: 'insufficient_org_credits', organizationId: org.id, availableMicros: Math.max(0, available), neededMicros: minMicros, fundToken: org.fund_token };
    }
    const room = Math.min(available, capRoom, key?.remainingMicros ?? Infinity);
    const hold = this.#ledger.place({ id: sortableId(orgHoldPrefix(org.id)), keyId, memberAccountId }, Math.min(maxMicros, room), request, now);
    if (perMinute !== undefined) this.#rate.note(rateKey, now);
    return { ok: true, accountId: memberAccountId, keyId, holdId: hold.id, amountMicros: hold.amount_micros, availableMicros: room - hold.amount_micros };
  }

  /**
   * Places up to `count` holds of `amountMicros` for a member's unlimited key ahead of its requests
   * (its hold pool, `org-hold-pool.ts`), each decided as `hold` decides one. The whole pool (what it
   * keeps already, `pooledMicros`, included) takes at most POOL_ROOM_SHARE of what the member could
   * hold here and POOL_MAX_MICROS; it grows only while the member has fewer than its
   * MEMBER_OPEN_HOLDS_SHARE in flight and the organization fewer than MAX_OPEN_HOLDS, so idle pools
   * never take what members' requests share. A suspended organization grants nothing (and says so).
   */
  grantPool(input: PoolGrantRequest, now: number): Result<PoolGrant, HoldFailure | NotMember> {
    const { memberAccountId, keyId, amountMicros, purpose, ttlMs } = input;
    if (!Number.isSafeInteger(amountMicros) || amountMicros <= 0 || isLongLived(purpose)) throw new Error(`invalid pooled hold: ${amountMicros} micro-dollars for ${purpose}`);
    // Pending, not a member, or refused outright: as `hold` would answer (the balance and cap checks are the budget's).
    const room = this.spendable({ memberAccountId, keyId, keyLimits: [] }, now);
    if (!room.ok) return room;
    const org = this.#memory.account!;
    if (org.suspended_at !== null) return { ok: false, reason: 'account_suspended', organizationId: org.id };
    const pooled = Math.max(0, input.pooledMicros);
    const budget = Math.min(POOL_MAX_MICROS, Math.floor((room.availableMicros + pooled) / POOL_ROOM_SHARE)) - pooled;
    const open = this.#memory.holds;
    // Within the budget (so within the balance and the cap), the member's share and the organization's shared holds.
    const count = Math.max(
      0,
      Math.min(input.count, Math.floor(budget / amountMicros), MEMBER_OPEN_HOLDS_SHARE - open.inFlightOf(memberAccountId), MAX_OPEN_HOLDS - open.inFlight),
    );
    const request = { purpose, ttlMs };
    const placed = this.#ledger.placeAll(
      Array.from({ length: count }, () => ({ owner: { id: sortableId(orgHoldPrefix(org.id)), keyId, memberAccountId }, amountMicros, request })),
      now,
    );
    return {
      ok: true,
      holds: placed.map((hold) => ({ holdId: hold.id, amountMicros: hold.amount_micros, expiresAt: hold.expires_at })),
      availableMicros: room.availableMicros - count * amountMicros,
    };
  }

  /** A member gives back pooled holds no request used; only its own open holds close. How many did. */
  returnPooled(memberAccountId: string, holdIds: string[], now: number): number {
    let closed = 0;
    for (const holdId of holdIds) {
      if (this.#memory.holds.get(holdId)?.member_account_id === memberAccountId && this.#ledger.returnUnused(holdId, now)) closed++;
    }
    return closed;
  }

  /**
   * What a member's key could hold here now, without holding it (D25's quote): the least of the
   * organization's available balance, the member's cap room and the key's limit room.
   */
  spendable(input: Omit<MemberHoldRequest, 'request'>, now: number): Result<Spendable, HoldFailure | NotMember> {
    const org = this.#memory.account;
    if (!org || org.kind !== 'organization') return { ok: false, reason: 'not_member' };
    const member = this.#row(input.memberAccountId);
    if (!member || !CURRENT.has(member.status)) return { ok: false, reason: 'not_member' };
    if (member.status === 'pending') return { ok: false, reason: 'membership_pending', organizationId: org.id };
    const available = Math.max(0, org.balance_micros - this.#memory.holds.heldMicros);
    const capRoom =
      member.cap_micros === null ? Infinity : Math.max(0, member.cap_micros - this.#spentThisMonth(input.memberAccountId, now) - this.#memory.holds.heldByMember(input.memberAccountId));
    const key = this.#keyRoom({ ...input, request: { minMicros: 0, maxMicros: 0, purpose: '' } });
    return {
      ok: true,
      accountId: input.memberAccountId,
      keyId: input.keyId,
      availableMicros: Math.min(available, capRoom, key?.remainingMicros ?? Infinity),
      accountAvailableMicros: available,
      fundToken: org.fund_token,
      organizationId: org.id,
    };
  }

  /**
   * The member key's tightest limit after what it spent and holds here; null for a key without
   * limits. A limit of a key above it (D35, `keyIds`) also subtracts what its other keys spent and hold here.
   */
  #keyRoom(input: MemberHoldRequest) {
    if (input.keyLimits.length === 0) return null;
    const own = input.keyLimits.filter((l) => l.keyIds === undefined);
    const periods = own.map((l) => l.period);
    while (periods.length < 3) periods.push('');
    const spent = new Map(
      own.length === 0
        ? []
        : run<{ period: string; spent_micros: number }>(this.#storage, SQL.memberKeySpent, input.memberAccountId, input.keyId, ...periods).map((r) => [r.period, r.spent_micros]),
    );
    const held = this.#memory.holds.heldBy(input.keyId);
    const room = (l: KeyLimit) => {
      if (l.keyIds === undefined) return l.remainingMicros - (spent.get(l.period) ?? 0) - held;
      const family = run<{ spent: number }>(this.#storage, SQL.memberFamilySpent, input.memberAccountId, l.period, JSON.stringify(l.keyIds))[0]?.spent ?? 0;
      return l.remainingMicros - family - this.#memory.holds.heldByAny(new Set(l.keyIds));
    };
    return tightest(input.keyLimits.map((l) => ({ ...l, remainingMicros: Math.max(0, room(l)) })));
  }

  #spentThisMonth(memberAccountId: string, now: number): number {
    return this.#spend.memberSpentThisMonth(memberAccountId, now);
  }

  #row(memberAccountId: string): Row | undefined {
    let row = this.#members.get(memberAccountId);
    if (row === undefined) {
      row = run<Row>(this.#storage, SQL.member, memberAccountId)[0] ?? null;
      this.#members.set(memberAccountId, row);
    }
    return row ?? undefined;
  }

  #view(row: Row, now: number): MemberRow {
    return {
      accountId: row.account_id,
      status: row.status,
      capMicros: row.cap_micros,
      joinedAt: row.joined_at,
      approvedAt: row.approved_at,
      leftAt: row.left_at,
      spentThisMonthMicros: this.#spentThisMonth(row.account_id, now),
    };
  }
}
