import { hasOwnLimits } from './key-tree';
import type { Keys } from './keys';
import type { SpendCounters } from './spend';
import { run, SQL, type KeyRow } from './statements';
import type { AuthFailure, KeyRecord, Result, RouteClass } from './types';

/** Keys that still work (not revoked, not expired) an account may hold before `POST /agent/keys` is refused. */
export const MAX_LIVE_KEYS = 100;
/** Key rows of any state an account may hold: revoked and expired sub-keys count until they are pruned. */
export const MAX_KEY_ROWS = 1_000;
/** A revoked or expired sub-key is deleted at the first mint this long after it stopped working. */
export const DEAD_SUB_KEY_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

/** What an agent asks for its sub-agent (D27); null leaves a guardrail to the minting key's. */
export interface SubKeyRequest {
  hash: string;
  hint: string;
  name: string;
  totalLimitMicros: number | null;
  /** ms since epoch */
  expiresAt: number | null;
  allowedModels: string[] | null;
  allowedRoutes: RouteClass[] | null;
}

/** Why a key may not mint, list or revoke keys; mapped to wire errors in `src/routes/agent/keys.handlers.ts`. */
export type SubKeyRefusal =
  | AuthFailure
  | { reason: 'sub_key' }
  | { reason: 'limited_key' }
  | { reason: 'too_many_keys'; limit: number; live: boolean }
  | { reason: 'exceeds_parent'; field: 'allowed_models' | 'allowed_routes'; value: string }
  | { reason: 'no_such_key' };

export interface KeyWithSpend extends KeyRecord {
  /** What the key has been charged (micro-dollars). */
  spentMicros: number;
}

/**
 * Keys minted by keys (D27): an agent hands a sub-agent a key with a total limit, an expiry and
 * allowed models and routes. They are ordinary rows of `api_keys` (with `parent_key_id` set), so
 * every request checks them exactly as it checks the dashboard's keys. Rules:
 * - only a key that is not a sub-key, and has no spend limit of its own, may mint or revoke (D35:
 *   a limited key could otherwise revoke the account's unlimited keys, or mint keys of its own);
 * - a sub-key gets no more than its parent: its models and routes are a subset of the parent's, and
 *   it expires no later than the parent; revoking the parent revokes it (`Keys.update`);
 * - and at every request it stays bounded by its parent as the parent is then (D35, `Keys.check`,
 *   `SpendCounters.limits`): guardrails the parent gains later bind it, and its spend counts
 *   against the parent's limits (a pruned sub-key's too, `foldPrunedSubKeySpend`);
 * - at most MAX_LIVE_KEYS working keys and MAX_KEY_ROWS rows; dead sub-keys are pruned after
 *   DEAD_SUB_KEY_RETENTION_MS, so minting cannot grow the object without bound.
 */
export class SubKeys {
  readonly #storage: DurableObjectStorage;
  readonly #keys: Keys;
  readonly #spend: SpendCounters;

  /** D29: whether keys' spend is also counted in an organization (a member, or one left with spend still coming). */
  readonly #spendsInOrganization: () => boolean;

  constructor(storage: DurableObjectStorage, keys: Keys, spend: SpendCounters, spendsInOrganization: () => boolean = () => false) {
    this.#storage = storage;
    this.#keys = keys;
    this.#spend = spend;
    this.#spendsInOrganization = spendsInOrganization;
  }

  mint(callerHash: string, request: SubKeyRequest, now: number): Result<{ key: KeyRecord }, SubKeyRefusal> {
    const parent = this.#delegator(callerHash, now);
    if (!parent.ok) return parent;
    const { key } = parent;
    const allowedModels = narrowed(key.allowed_models, request.allowedModels);
    if (!allowedModels.ok) return { ok: false, reason: 'exceeds_parent', field: 'allowed_models', value: allowedModels.value };
    const allowedRoutes = narrowed(key.allowed_routes, request.allowedRoutes);
    if (!allowedRoutes.ok) return { ok: false, reason: 'exceeds_parent', field: 'allowed_routes', value: allowedRoutes.value };
    const expiresAt = key.expires_at === null ? request.expiresAt : Math.min(request.expiresAt ?? key.expires_at, key.expires_at);

    return this.#storage.transactionSync(() => {
      // An organization counts a sub-key's spend there by its id: a pruned one's would stop binding
      // its parent's limits, so nothing is pruned while that spend may count (D29, D35).
      if (!this.#spendsInOrganization()) {
        const cutoff = now - DEAD_SUB_KEY_RETENTION_MS;
        run(this.#storage, SQL.foldPrunedSubKeySpend, cutoff, cutoff);
        run(this.#storage, SQL.pruneDeadSubKeySpend, cutoff, cutoff);
        run(this.#storage, SQL.pruneDeadSubKeys, cutoff, cutoff);
      }
      this.#keys.forgetCached();
      if (count(this.#storage, SQL.liveKeys, now) >= MAX_LIVE_KEYS) return { ok: false, reason: 'too_many_keys', limit: MAX_LIVE_KEYS, live: true };
      if (count(this.#storage, SQL.keyRows) >= MAX_KEY_ROWS) return { ok: false, reason: 'too_many_keys', limit: MAX_KEY_ROWS, live: false };
      const created = this.#keys.create(
        {
          hash: request.hash,
          hint: request.hint,
          name: request.name,
          totalLimitMicros: request.totalLimitMicros,
          expiresAt,
          allowedModels: allowedModels.value,
          allowedRoutes: allowedRoutes.value as RouteClass[] | null,
          parentKeyId: key.id,
        },
        now,
      );
      return { ok: true, key: created };
    });
  }

  /** The account's keys with what each spent, for a key of the account; a sub-key sees itself only. */
  list(callerHash: string, now: number): Result<{ keys: KeyWithSpend[] }, AuthFailure> {
    const checked = this.#keys.check(callerHash, undefined, now);
    if (!checked.ok) return checked;
    const all = this.#keys.list();
    const keys = checked.key.parent_key_id === null ? all : all.filter((key) => key.id === checked.key.id);
    return { ok: true, keys: this.#withSpend(keys) };
  }

  /** Revokes `keyId` (and the sub-keys it minted) for a key that may delegate; a revoked key is answered as it is. */
  revoke(callerHash: string, keyId: string, now: number): Result<{ key: KeyRecord }, SubKeyRefusal> {
    const caller = this.#delegator(callerHash, now);
    if (!caller.ok) return caller;
    const key = this.#keys.get(keyId);
    if (!key) return { ok: false, reason: 'no_such_key' };
    if (key.revokedAt !== null) return { ok: true, key };
    const revoked = this.#keys.update(keyId, { revoked: true }, now);
    return revoked ? { ok: true, key: revoked } : { ok: false, reason: 'no_such_key' };
  }

  /** The calling key, when it works, is not itself a sub-key and has no spend limit (D35): only such a key mints or revokes. */
  #delegator(callerHash: string, now: number): Result<{ key: KeyRow }, SubKeyRefusal> {
    const checked = this.#keys.check(callerHash, undefined, now);
    if (!checked.ok) return checked;
    if (checked.key.parent_key_id !== null) return { ok: false, reason: 'sub_key' };
    if (hasOwnLimits(checked.key)) return { ok: false, reason: 'limited_key' };
    return checked;
  }

  /**
   * Counted keys (with a limit, or sub-keys) from their `total` counter, which has absorbed their
   * spend in organizations the account left (D29); the others from one scan of the ledger's
   * charges plus that spend, done only when such a key is listed. The spend in the organization
   * the account is a member of now is added by the caller (`AccountCore.keysForKey`).
   */
  #withSpend(keys: KeyRecord[]): KeyWithSpend[] {
    const counted = (key: KeyRecord) => key.parentKeyId !== null || key.dailyLimitMicros !== null || key.monthlyLimitMicros !== null || key.totalLimitMicros !== null;
    const totals = new Map(run<{ key_id: string; spent_micros: number }>(this.#storage, SQL.spentTotals).map((row) => [row.key_id, row.spent_micros]));
    const charged = keys.every(counted)
      ? new Map<string, number>()
      : new Map(run<{ key_id: string; spent: number }>(this.#storage, SQL.chargedByKey).map((row) => [row.key_id, row.spent]));
    const absorbed = keys.every(counted) ? new Map<string, number>() : this.#spend.absorbedTotals();
    return keys.map((key) => ({ ...key, spentMicros: counted(key) ? (totals.get(key.id) ?? 0) : (charged.get(key.id) ?? 0) + (absorbed.get(key.id) ?? 0) }));
  }
}

function count(storage: DurableObjectStorage, statement: typeof SQL.liveKeys | typeof SQL.keyRows, ...bindings: unknown[]): number {
  return run<{ count: number }>(storage, statement, ...bindings)[0]!.count;
}

/**
 * A sub-key's list within its parent's (a JSON array, or null for everything): the parent's when
 * none is asked; refused, naming the first value, when the ask goes beyond it.
 */
function narrowed<T extends string>(parentJson: string | null, asked: T[] | null): { ok: true; value: T[] | null } | { ok: false; value: string } {
  if (parentJson === null) return { ok: true, value: asked };
  const parent = JSON.parse(parentJson) as T[];
  if (asked === null) return { ok: true, value: parent };
  const beyond = asked.find((value) => !parent.includes(value));
  return beyond === undefined ? { ok: true, value: asked } : { ok: false, value: beyond };
}
