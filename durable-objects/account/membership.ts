import type { AccountMemory } from './memory';
import type { SpendCounters } from './spend';
import type { MemberHoldRequest, MemberKeySpend, NotMember, OrgPeer, PoolGrant, PoolGrantRequest } from './org-protocol';
import type { StoredRequest } from './requests';
import { run, SQL } from './statements';
import type { Hold, HoldFailure, MemberView, Result, Spendable } from './types';

export type JoinRefusal =
  | { reason: 'invalid_invite' }
  | { reason: 'already_member'; organizationId: string }
  | { reason: 'organization_cannot_join' }
  | { reason: 'key_not_allowed' };

/**
 * A member account's side of D29: only which organization it spends from (`account.organization_id`,
 * in memory for the hot path) and which it ever belonged to (`memberships`, for request lookups).
 * Join asks the organization first, then records it here; leave forgets it here first, then tells
 * the organization. Nothing of this account is held across an await: each step re-reads memory.
 */
export class Membership {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;
  readonly #org: (organizationId: string) => OrgPeer;
  readonly #spend: SpendCounters;
  /** Organizations left whose spend for this account's keys may still grow (a hold of it was open there at the last report); read on first use. */
  #unconfirmed: Set<string> | null = null;

  constructor(storage: DurableObjectStorage, memory: AccountMemory, spend: SpendCounters, org: (organizationId: string) => OrgPeer) {
    this.#storage = storage;
    this.#memory = memory;
    this.#spend = spend;
    this.#org = org;
  }

  /** The organization this account spends from, or null. */
  get organizationId(): string | null {
    return this.#memory.account?.organization_id ?? null;
  }

  peer(organizationId: string): OrgPeer {
    return this.#org(organizationId);
  }

  /**
   * Joins `organizationId` with an invite's hash. Idempotent for the same organization; a member
   * of another must leave first. Two joins racing to different organizations: the one recorded
   * second finds the first and undoes its own.
   */
  async join(organizationId: string, inviteHash: string, now: number): Promise<Result<{ organizationId: string; status: 'pending' | 'active' }, JoinRefusal>> {
    const self = this.#memory.account!;
    if (self.kind === 'organization') return { ok: false, reason: 'organization_cannot_join' };
    if (organizationId === self.id) return { ok: false, reason: 'invalid_invite' };
    const current = this.organizationId;
    if (current !== null && current !== organizationId) return { ok: false, reason: 'already_member', organizationId: current };
    const peer = this.#org(organizationId);
    const joined = await peer.joinAsMember(self.id, inviteHash);
    if (!joined.ok) return joined;
    const after = this.organizationId;
    if (after !== null && after !== organizationId) {
      await peer.leftAsMember(self.id);
      return { ok: false, reason: 'already_member', organizationId: after };
    }
    if (after === null) {
      this.#storage.transactionSync(() => {
        run(this.#storage, SQL.setOrganization, organizationId);
        // Its keys' spend there counts in the organization again (its key room subtracts it): it leaves the counters here.
        this.#spend.returnAbsorbed(organizationId);
        this.#storage.sql.exec(
          'INSERT INTO memberships (organization_id, joined_at) VALUES (?, ?) ON CONFLICT (organization_id) DO UPDATE SET joined_at = excluded.joined_at, left_at = NULL, left_confirmed_at = NULL',
          organizationId,
          now,
        );
      });
      this.#memory.account = { ...this.#memory.account!, organization_id: organizationId };
      this.#unconfirmed?.delete(organizationId);
    }
    return { ok: true, organizationId, status: joined.status };
  }

  /**
   * Leaves: this account forgets the organization first (its next request spends its own
   * balance), then the organization marks it left. A leave whose second step failed is completed
   * by the next call. The organization left, or null when there was none.
   */
  async leave(now: number): Promise<string | null> {
    const current = this.organizationId;
    if (current !== null) this.forget(current, now);
    const [pending] = this.#storage.sql
      .exec<{ organization_id: string }>('SELECT organization_id FROM memberships WHERE left_at IS NOT NULL AND left_confirmed_at IS NULL ORDER BY left_at DESC LIMIT 1')
      .toArray();
    const organizationId = current ?? pending?.organization_id ?? null;
    if (organizationId === null) return null;
    await this.#org(organizationId).leftAsMember(this.#memory.account!.id);
    await this.confirmLeft(organizationId);
    return organizationId;
  }

  /**
   * Once the organization knows the account left (or removed it): what its keys were charged there
   * is added to their counters here, each charge once (`SpendCounters.absorb` adds only the growth
   * since the last report), so their limits go on counting it. While a hold of the account is
   * still open there, its charge may come later: the membership stays unconfirmed and a hold of a
   * limited key here asks again first (`refreshLeft`); the first report with no hold open confirms it.
   */
  async confirmLeft(organizationId: string): Promise<void> {
    const { spend, openHolds } = await this.#org(organizationId).memberKeySpend(this.#memory.account!.id);
    this.#storage.transactionSync(() => {
      const open = this.#storage.sql.exec('SELECT 1 FROM memberships WHERE organization_id = ? AND left_at IS NOT NULL AND left_confirmed_at IS NULL', organizationId).toArray();
      if (open.length === 0) return;
      this.#spend.absorb(organizationId, spend);
      if (openHolds === 0) this.#storage.sql.exec('UPDATE memberships SET left_confirmed_at = ? WHERE organization_id = ?', Date.now(), organizationId);
    });
    if (openHolds === 0) this.#unconfirmed?.delete(organizationId);
    else this.unconfirmed().add(organizationId);
  }

  /** Organizations this account left whose spend for its keys is not final yet (see `confirmLeft`). */
  unconfirmed(): Set<string> {
    this.#unconfirmed ??= new Set(
      this.#storage.sql
        .exec<{ organization_id: string }>('SELECT organization_id FROM memberships WHERE left_at IS NOT NULL AND left_confirmed_at IS NULL')
        .toArray()
        .map((row) => row.organization_id),
    );
    return this.#unconfirmed;
  }

  /** Asks every organization in `unconfirmed()` for its keys' spend (a failed ask is retried by the next call). */
  async refreshLeft(): Promise<void> {
    await Promise.all([...this.unconfirmed()].map((organizationId) => this.confirmLeft(organizationId).catch((err: unknown) => console.error('organization spend not absorbed', err))));
  }

  /** Forgets the organization here (a leave, or the organization no longer counts this account). */
  forget(organizationId: string, now: number): void {
    if (this.organizationId !== organizationId) return;
    this.#storage.transactionSync(() => {
      run(this.#storage, SQL.setOrganization, null);
      this.#storage.sql.exec('UPDATE memberships SET left_at = ? WHERE organization_id = ?', now, organizationId);
    });
    this.#memory.account = { ...this.#memory.account!, organization_id: null };
    this.unconfirmed().add(organizationId);
  }

  /** D29: a request this member made while in one of `organizations` is recorded there (with `keyId`, D35: only that key's). */
  async findRequest(organizations: string[], requestId: string, keyId?: string): Promise<Result<{ request: StoredRequest }, { reason: 'not_found' }>> {
    const memberId = this.#memory.account!.id;
    for (const organizationId of organizations) {
      const request = await this.#org(organizationId).memberRequest(memberId, requestId, keyId);
      if (request) return { ok: true, request };
    }
    return { ok: false, reason: 'not_found' };
  }

  /** Every organization this account belonged to, the current one first: where its member requests are recorded. */
  organizations(): string[] {
    return this.#storage.sql
      .exec<{ organization_id: string }>('SELECT organization_id FROM memberships ORDER BY left_at IS NOT NULL, joined_at DESC LIMIT 16')
      .toArray()
      .map((row) => row.organization_id);
  }
}
