import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DrizzleSqliteDODatabase } from 'drizzle-orm/durable-sqlite';
import { hashesEqual, newKeyId } from '../../src/accounts/credentials';
import type { KeyTree } from './key-tree';
import type { AccountMemory } from './memory';
import type * as schema from './schema';
import { apiKeys } from './schema';
import type { SpendCounters } from './spend';
import { run, SQL, type KeyRow } from './statements';
import type { AuthFailure, KeyGuardrails, KeyRecord, RouteClass } from './types';

export type CheckedKey = { ok: true; key: KeyRow } | ({ ok: false } & AuthFailure);

export type NewKey = { hash: string; hint: string; name: string } & KeyGuardrails & { allowedRoutes?: RouteClass[] | null; parentKeyId?: string | null };
export type KeyPatch = KeyGuardrails & { revoked?: boolean; name?: string; allowedRoutes?: RouteClass[] | null };

/**
 * The account's API keys: the check every request makes, from a cache of the keys seen (this
 * object is their only writer), and the operator's changes, which empty that cache.
 */
export class Keys {
  readonly #storage: DurableObjectStorage;
  readonly #db: DrizzleSqliteDODatabase<typeof schema>;
  readonly #memory: AccountMemory;
  readonly #spend: SpendCounters;
  readonly #tree: KeyTree;
  /** Keys by hash, as read; a key that does not exist is not remembered. */
  #byHash = new Map<string, KeyRow>();

  constructor(storage: DurableObjectStorage, db: DrizzleSqliteDODatabase<typeof schema>, memory: AccountMemory, spend: SpendCounters, tree: KeyTree) {
    this.#storage = storage;
    this.#db = db;
    this.#memory = memory;
    this.#spend = spend;
    this.#tree = tree;
  }

  /**
   * Whether a key may act for this account at `now`, for `model` and on the route class `route`
   * when they are named (`unclassified`: a billed call that named none, refused to a key limited
   * to some routes).
   */
  check(keyHash: string, model: string | undefined, now: number, route?: RouteClass | 'unclassified'): CheckedKey {
    if (!this.#memory.account) return { ok: false, reason: 'invalid_key' };
    let key = this.#byHash.get(keyHash);
    if (!key) {
      key = run<KeyRow>(this.#storage, SQL.keyByHash, keyHash)[0];
      if (!key) return { ok: false, reason: 'invalid_key' };
      this.#byHash.set(keyHash, key);
    }
    if (!hashesEqual(key.hash, keyHash)) return { ok: false, reason: 'invalid_key' };
    // D35: a sub-key is bounded by the keys above it as they are now (read from memory): their
    // revocation, expiry, models and routes; their spend limits bind its holds (`SpendCounters.limits`).
    const above = key.parent_key_id === null ? [] : this.#tree.ancestors(key);
    if (above === null) return { ok: false, reason: 'revoked' };
    const chain = [key, ...above];
    if (chain.some((k) => k.revoked_at !== null)) return { ok: false, reason: 'revoked' };
    if (chain.some((k) => k.expires_at !== null && k.expires_at <= now)) return { ok: false, reason: 'expired' };
    // D28: read from memory, so a suspension costs the hot path nothing.
    if (this.#memory.account.suspended_at !== null) return { ok: false, reason: 'account_suspended' };
    if (model !== undefined && chain.some((k) => k.allowed_models !== null && !(JSON.parse(k.allowed_models) as string[]).includes(model))) {
      return { ok: false, reason: 'model_not_allowed', model };
    }
    if (route !== undefined && chain.some((k) => k.allowed_routes !== null && !(JSON.parse(k.allowed_routes) as string[]).includes(route))) {
      return { ok: false, reason: 'route_not_allowed', route };
    }
    return { ok: true, key };
  }

  create(input: NewKey, now: number): KeyRecord {
    const id = newKeyId(this.#memory.account!.id);
    this.#db.insert(apiKeys).values({ id, createdAt: now, ...input }).run();
    // a new sub-key joins its parent's family (D35)
    this.#tree.forget();
    return keyRecord(this.#db.select().from(apiKeys).where(eq(apiKeys.id, id)).get()!);
  }

  /**
   * Changes a key's guardrails or revokes it; null when there is no such key. Revoking a key also
   * revokes the sub-keys it minted (D27): a delegate does not outlive its delegator.
   */
  update(keyId: string, patch: KeyPatch, now: number): KeyRecord | null {
    const { revoked, ...rest } = patch;
    const changes = Object.fromEntries(
      Object.entries({ ...rest, revokedAt: revoked === undefined ? undefined : revoked ? now : null }).filter(([, v]) => v !== undefined),
    );
    if (Object.keys(changes).length > 0) this.#db.update(apiKeys).set(changes).where(eq(apiKeys.id, keyId)).run();
    if (revoked === true) this.#db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.parentKeyId, keyId), isNull(apiKeys.revokedAt))).run();
    // revocation and new limits apply from the next request
    this.forgetCached();
    const row = this.#db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
    if (!row) return null;
    if (row.dailyLimitMicros !== null || row.monthlyLimitMicros !== null || row.totalLimitMicros !== null) this.#spend.recount(keyId, now);
    return keyRecord(row);
  }

  /** The key `keyId` of this account, or null. */
  get(keyId: string): KeyRecord | null {
    const row = this.#db.select().from(apiKeys).where(eq(apiKeys.id, keyId)).get();
    return row ? keyRecord(row) : null;
  }

  list(): KeyRecord[] {
    return this.#db.select().from(apiKeys).orderBy(asc(apiKeys.createdAt)).all().map(keyRecord);
  }

  /** Drops what is cached about keys, so the next request reads them again. */
  forgetCached(): void {
    this.#byHash.clear();
    this.#tree.forget();
    this.#spend.forgetLimits();
  }
}

/** What a patch changes, for its audit row: `revoked`, `restored`, and the names of the fields set. */
export function describePatch(patch: KeyPatch): string {
  const changed = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => (field === 'revoked' ? (value ? 'revoked' : 'restored') : field));
  return changed.join(', ') || 'nothing';
}

function keyRecord(row: typeof apiKeys.$inferSelect): KeyRecord {
  const { hash: _hash, ...record } = row;
  return record;
}
