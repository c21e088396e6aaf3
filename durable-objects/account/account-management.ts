import { migrate } from 'drizzle-orm/durable-sqlite/migrator';
import { newKeyId } from '../../src/accounts/credentials';
import { ActivityReader, type ActivityTotals, type KeyUsage } from './activity-totals';
import { AccountCore } from './account-core';
import type { CallCountsView } from './call-counts';
import { describePatch, type KeyPatch, type NewKey } from './keys';
import migrations from './migrations/migrations.js';
import { TOTAL_PERIOD } from './periods';
import { account, apiKeys } from './schema';
import type { KeyWithSpend, SubKeyRefusal, SubKeyRequest } from './sub-keys';
import type { AccountSnapshot, AuthFailure, KeyRecord, LedgerEntry, LedgerPage, OpenHoldView, Result } from './types';
import type { ChargeFilter, ChargePage, CreditEntry, DailySpendRow } from './usage';
import type { ActivityPage, StoredRequest } from './requests';

export interface NewAccount {
  accountId: string;
  claimTokenHash: string;
  key: { hash: string; hint: string; name: string };
  expiresAt: number;
  /** One-time starter credit, 0 for none. */
  welcomeMicros: number;
  /** The fund link's capability token (D22). */
  fundToken: string;
}

export interface AdminView {
  account: AccountSnapshot;
  keys: KeyRecord[];
  /** The newest ledger rows; `ledgerPage` reads the rest. */
  ledger: LedgerEntry[];
  holds: OpenHoldView[];
  /** Holds released by their deadline and never charged: requests whose Worker died. */
  expiredUnsettledHolds: number;
  /** D33: what upstreams billed beyond this account's holds, its `loss` rows summed. */
  lossMicros: number;
  /** The request path's calls that reached this object since it started (in memory). */
  calls: CallCountsView;
}

/**
 * What an account's owner, its agents and the operator ask of it beside the money path of
 * `AccountCore`: its creation, its keys (the operator's, and D27's sub-keys), and the views of
 * its ledger, spend and holds. None of it is on a billed request's path.
 */
export class AccountManagement extends AccountCore {
  async create(input: NewAccount): Promise<AccountSnapshot> {
    if (this.parts.memory.account) throw new Error('account already exists');
    await migrate(this.parts.db, migrations);
    const now = Date.now();
    this.parts.db.transaction((tx) => {
      tx.insert(account)
        .values({ id: input.accountId, createdAt: now, claimTokenHash: input.claimTokenHash, expiresAt: input.expiresAt, fundToken: input.fundToken })
        .run();
      tx.insert(apiKeys).values({ id: newKeyId(input.accountId), createdAt: now, ...input.key }).run();
    });
    this.parts.memory.load(this.ctx.storage);
    this.parts.topUp.load();
    if (input.welcomeMicros > 0) {
      await this.credit({ amountMicros: input.welcomeMicros, source: 'welcome', idempotencyKey: `welcome:${input.accountId}`, note: 'welcome credit' });
    }
    return this.snapshot();
  }

  /**
   * D29: makes this object an organization: an account with a name and no key, funded like any
   * account, that member accounts spend from. It never expires (the operator made it).
   */
  async createOrganization(input: { accountId: string; name: string; claimTokenHash: string; fundToken: string }): Promise<AccountSnapshot> {
    if (this.parts.memory.account) throw new Error('account already exists');
    await migrate(this.parts.db, migrations);
    this.parts.db
      .insert(account)
      .values({ id: input.accountId, createdAt: Date.now(), claimTokenHash: input.claimTokenHash, expiresAt: null, fundToken: input.fundToken, kind: 'organization', name: input.name })
      .run();
    this.parts.memory.load(this.ctx.storage);
    this.parts.topUp.load();
    return this.snapshot();
  }

  /** The account for a page that knows it by a capability (the fund page); null when there is none. */
  async view(): Promise<AccountSnapshot | null> {
    return this.parts.memory.account ? this.parts.snapshot() : null;
  }

  /** Everything an operator looks at; null when the account does not exist. */
  async adminView(ledgerLimit = 50): Promise<AdminView | null> {
    if (!this.parts.memory.account) return null;
    return {
      account: this.parts.snapshot(),
      keys: await this.keys(),
      ledger: this.parts.ledger.page(ledgerLimit).entries,
      holds: this.parts.memory.holds.list().map((hold) => ({
        holdId: hold.id,
        keyId: hold.key_id,
        amountMicros: hold.amount_micros,
        purpose: hold.purpose,
        requestId: hold.request_id,
        createdAt: hold.created_at,
        expiresAt: hold.expires_at,
      })),
      expiredUnsettledHolds: this.parts.ledger.expiredUnsettled(),
      lossMicros: this.parts.ledger.losses(),
      calls: this.parts.calls.view(),
    };
  }

  /** A page of the whole ledger, newest first, before the row `before`; null without an account. */
  async ledgerPage(limit: number, before?: number): Promise<LedgerPage | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.ledger.page(limit, before);
  }

  /** The dashboard's ledger: charges of one key or model (or all), newest first; null without an account. */
  async chargePage(filter: ChargeFilter, limit: number, before?: number): Promise<ChargePage | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.usage.charges(filter, limit, before);
  }

  /** The dashboard's activity: the account's requests, newest first, failed ones included; null without an account. */
  async requestsPage(limit: number, before?: { at: number; id: string }): Promise<ActivityPage | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.requests.page(limit, before);
  }

  /** One request of the account's own, as `GET /v1/requests/{id}` shows it to its unlimited keys; null when there is none. */
  async requestRecord(requestId: string): Promise<StoredRequest | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.requests.find(requestId);
  }

  /** Charges since `since` (ms) per UTC day and purpose, for the usage chart; null without an account. */
  async dailySpend(since: number): Promise<DailySpendRow[] | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.usage.dailySpend(since);
  }

  /** The overview's spend and request counts today, this month (UTC) and over 30 days to `now`; null without an account. */
  async activityTotals(now: number): Promise<ActivityTotals | null> {
    if (!this.parts.memory.account) return null;
    return new ActivityReader(this.ctx.storage).totals(now);
  }

  /** The keys page in one call: the keys, and the spend and last use of those that were used; null without an account. */
  async keysWithUsage(now: number): Promise<{ keys: KeyRecord[]; usage: KeyUsage[] } | null> {
    if (!this.parts.memory.account) return null;
    return { keys: await this.keys(), usage: new ActivityReader(this.ctx.storage).keyUsage(now) };
  }

  /** The newest credits (cards, USDC, operator, welcome); null without an account. */
  async credits(limit: number): Promise<CreditEntry[] | null> {
    if (!this.parts.memory.account) return null;
    return this.parts.usage.credits(limit);
  }

  /** Adds a key; null when the account does not exist. By the operator, with an `audit` ledger row in the same transaction. */
  async createKey(input: NewKey, by?: 'operator'): Promise<KeyRecord | null> {
    if (!this.parts.memory.account) return null;
    const now = Date.now();
    return this.ctx.storage.transactionSync(() => {
      const key = this.parts.keys.create(input, now);
      if (by) this.parts.ledger.auditKey(key.id, `key created by the operator: ${key.name}`, `operator:key:${key.id}`, now);
      return key;
    });
  }

  /** Changes a key's guardrails or revokes it; null when there is no such key. By the operator, with an `audit` ledger row naming what changed. */
  async updateKey(keyId: string, patch: KeyPatch, by?: 'operator'): Promise<KeyRecord | null> {
    if (!this.parts.memory.account) return null;
    const now = Date.now();
    return this.ctx.storage.transactionSync(() => {
      const key = this.parts.keys.update(keyId, patch, now);
      if (key && by) this.parts.ledger.auditKey(key.id, `key changed by the operator: ${describePatch(patch)}`, `operator:key:${key.id}:${crypto.randomUUID()}`, now);
      return key;
    });
  }

  async keys(): Promise<KeyRecord[]> {
    return this.parts.keys.list();
  }

  /** D27 `POST /agent/keys`: a key of the account mints a sub-key (rules in `sub-keys.ts`). */
  async mintSubKey(callerHash: string, request: SubKeyRequest): Promise<Result<{ key: KeyRecord }, SubKeyRefusal>> {
    return this.parts.subKeys.mint(callerHash, request, Date.now());
  }

  /** D27 `GET /agent/keys`: the account's keys with their spend; a sub-key sees only itself. */
  async keysForKey(callerHash: string): Promise<Result<{ keys: KeyWithSpend[] }, AuthFailure>> {
    const listed = this.parts.subKeys.list(callerHash, Date.now());
    const organizationId = this.parts.membership.organizationId;
    if (!listed.ok || organizationId === null) return listed;
    // D29: a member's keys also spent in its organization: one call there for all of them.
    const { spend } = await this.parts.membership.peer(organizationId).memberKeySpend(this.parts.memory.account!.id);
    // Left meanwhile: that spend is now counted here.
    if (this.parts.membership.organizationId !== organizationId) return this.parts.subKeys.list(callerHash, Date.now());
    const there = new Map(spend.filter((row) => row.period === TOTAL_PERIOD).map((row) => [row.keyId, row.spentMicros]));
    return { ok: true, keys: listed.keys.map((key) => ({ ...key, spentMicros: key.spentMicros + (there.get(key.id) ?? 0) })) };
  }

  /** D27 `DELETE /agent/keys/{key_id}`: revoked from the next request on, with the sub-keys it minted. */
  async revokeKeyForKey(callerHash: string, keyId: string): Promise<Result<{ key: KeyRecord }, SubKeyRefusal>> {
    return this.parts.subKeys.revoke(callerHash, keyId, Date.now());
  }

  async ledgerEntries(limit = 50): Promise<LedgerEntry[]> {
    return this.parts.ledger.page(limit).entries;
  }
}
