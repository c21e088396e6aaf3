import type { AccountMemory } from './memory';
import type { InviteTerms, MemberRow, Organization } from './organization';

/** How many organizations one account's human may make in the dashboard (each is an account and a Durable Object). */
export const MAX_OWNED_ORGANIZATIONS = 20;

/** What an organization's owner does to it from the dashboard: the operator's routes, owner-checked. */
export type OwnerAction =
  | { op: 'invite'; hash: string; terms: InviteTerms }
  | { op: 'revoke'; inviteId: string }
  | { op: 'approve'; accountId: string }
  | { op: 'remove'; accountId: string };

export type OwnerActionResult = { ok: true; inviteId?: string; member?: MemberRow } | { ok: false; reason: 'not_found' };

export type ReserveResult = { ok: true } | { ok: false; reason: 'not_claimed' | 'too_many_organizations' };

/**
 * D29 in the dashboard: who owns an organization. In the owner's account, the organizations its
 * human made (`owned_organizations`, reserved before the organization exists); in the
 * organization, its owner (`account.owner_account_id`), which is the only truth of who may see or
 * act on it: a listing row alone grants nothing. The owner never changes.
 */
export class OrgOwnership {
  readonly #storage: DurableObjectStorage;
  readonly #memory: AccountMemory;
  readonly #organization: Organization;

  constructor(storage: DurableObjectStorage, memory: AccountMemory, organization: Organization) {
    this.#storage = storage;
    this.#memory = memory;
    this.#organization = organization;
  }

  /**
   * In the owner's account: takes a place for organization `organizationId` before it is made, so
   * a failure later leaves a listed id that resolves to nothing rather than an organization nobody
   * can reach. Only a claimed account (not an organization) may, at most `MAX_OWNED_ORGANIZATIONS`
   * times. Synchronous, so concurrent requests cannot pass the limit. Idempotent per id.
   */
  reserve(organizationId: string, now: number): ReserveResult {
    const account = this.#memory.account;
    if (!account || account.kind !== 'account' || account.claimed_at === null) return { ok: false, reason: 'not_claimed' };
    const count = this.#storage.sql.exec<{ n: number }>('SELECT COUNT(*) AS n FROM owned_organizations').one().n;
    if (count >= MAX_OWNED_ORGANIZATIONS) return { ok: false, reason: 'too_many_organizations' };
    this.#storage.sql.exec('INSERT OR IGNORE INTO owned_organizations (organization_id, created_at) VALUES (?, ?)', organizationId, now);
    return { ok: true };
  }

  /** In the owner's account: the organizations its human made, oldest first. */
  owned(): string[] {
    return this.#storage.sql
      .exec<{ organization_id: string }>('SELECT organization_id FROM owned_organizations ORDER BY created_at, organization_id')
      .toArray()
      .map((row) => row.organization_id);
  }

  /** In a new organization: records its owner (once; a second call changes nothing). */
  setOwner(ownerAccountId: string): void {
    this.#storage.sql.exec('UPDATE account SET owner_account_id = COALESCE(owner_account_id, ?)', ownerAccountId);
  }

  /** Whether this is an organization and `accountId` its owner. */
  isOwnedBy(accountId: string): boolean {
    if (!this.#organization.isOrganization) return false;
    const [row] = this.#storage.sql.exec<{ owner_account_id: string | null }>('SELECT owner_account_id FROM account').toArray();
    return row !== undefined && row.owner_account_id !== null && row.owner_account_id === accountId;
  }

  /** An owner's act on the organization: not found unless `ownerAccountId` owns it and the invite or member exists. */
  act(ownerAccountId: string, action: OwnerAction, now: number): OwnerActionResult {
    if (!this.isOwnedBy(ownerAccountId)) return { ok: false, reason: 'not_found' };
    switch (action.op) {
      case 'invite':
        return { ok: true, inviteId: this.#organization.createInvite(action.hash, action.terms, now) };
      case 'revoke':
        return this.#organization.revokeInvite(action.inviteId, now) ? { ok: true } : { ok: false, reason: 'not_found' };
      case 'approve': {
        const member = this.#organization.approve(action.accountId, now);
        return member ? { ok: true, member } : { ok: false, reason: 'not_found' };
      }
      case 'remove': {
        const member = this.#organization.remove(action.accountId, now);
        return member ? { ok: true, member } : { ok: false, reason: 'not_found' };
      }
    }
  }
}
