import { run, SQL, type KeyRow } from './statements';

/** Whether a key has a spend limit of its own (a sub-key's total limit included). */
export const hasOwnLimits = (key: KeyRow) => key.daily_limit_micros !== null || key.monthly_limit_micros !== null || key.total_limit_micros !== null;

/** Sub-keys are minted one level deep today; a deeper chain (or a cycle a bad row would make) stops here. */
const MAX_DEPTH = 8;

/**
 * D35: who minted whom among the account's keys, from memory. A sub-key is bounded at every request
 * by the keys above it as they are then (`Keys.check`, `SpendCounters.limits`), so the hot path
 * reads its parent here by id instead of from SQLite. This object is the only writer of
 * `api_keys`; every change calls `forget`.
 */
export class KeyTree {
  readonly #storage: DurableObjectStorage;
  /** Key rows by id, as read (null: no such row). */
  #byId = new Map<string, KeyRow | null>();
  /** Each key's sub-keys by id, read once for all keys when a family is first asked for. */
  #children: Map<string, string[]> | null = null;
  /** `family` answers, by key id. */
  #families = new Map<string, string[]>();

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  /** The key row `keyId`, or undefined. */
  row(keyId: string): KeyRow | undefined {
    let row = this.#byId.get(keyId);
    if (row === undefined) {
      row = run<KeyRow>(this.#storage, SQL.keyById, keyId)[0] ?? null;
      this.#byId.set(keyId, row);
    }
    return row ?? undefined;
  }

  /**
   * The keys above `key`, nearest first: [] for a key that is not a sub-key; null when one is
   * missing or the chain does not end (such a key must not work).
   */
  ancestors(key: KeyRow): KeyRow[] | null {
    const out: KeyRow[] = [];
    for (let parentId = key.parent_key_id; parentId !== null; parentId = out.at(-1)!.parent_key_id) {
      const parent = this.row(parentId);
      if (!parent || out.length >= MAX_DEPTH) return null;
      out.push(parent);
    }
    return out;
  }

  /** Whether the key or a key above it has a spend limit. */
  limited(key: KeyRow): boolean {
    return hasOwnLimits(key) || (this.ancestors(key) ?? []).some(hasOwnLimits);
  }

  /** The key and every key below it, revoked and expired ones included: all whose spend counts against its limits. */
  family(keyId: string): string[] {
    const known = this.#families.get(keyId);
    if (known) return known;
    const children = this.#childIndex();
    const seen = new Set([keyId]);
    for (const id of seen) for (const child of children.get(id) ?? []) seen.add(child);
    const family = [...seen];
    this.#families.set(keyId, family);
    return family;
  }

  /** Drops what is cached, after any change to `api_keys`. */
  forget(): void {
    this.#byId.clear();
    this.#children = null;
    this.#families.clear();
  }

  #childIndex(): Map<string, string[]> {
    if (!this.#children) {
      this.#children = new Map();
      for (const { id, parent_key_id: parent } of run<{ id: string; parent_key_id: string | null }>(this.#storage, SQL.keyParents)) {
        if (parent === null) continue;
        const siblings = this.#children.get(parent);
        if (siblings) siblings.push(id);
        else this.#children.set(parent, [id]);
      }
    }
    return this.#children;
  }
}
