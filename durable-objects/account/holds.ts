import type { OpenHold } from './statements';

/**
 * The account's open holds, in memory: the `holds` table as last committed, and the sum it keeps
 * aside, so a hold reads neither. Only the ledger changes it, after its transaction has committed.
 */
export class OpenHolds {
  #byId = new Map<string, OpenHold>();
  #heldMicros = 0;

  get size(): number {
    return this.#byId.size;
  }

  /** What all open holds keep aside from the balance. */
  get heldMicros(): number {
    return this.#heldMicros;
  }

  get(holdId: string): OpenHold | undefined {
    return this.#byId.get(holdId);
  }

  add(hold: OpenHold): void {
    this.#byId.set(hold.id, hold);
    this.#heldMicros += hold.amount_micros;
  }

  remove(hold: OpenHold): void {
    this.#byId.delete(hold.id);
    this.#heldMicros -= hold.amount_micros;
  }

  /** What one key's open holds keep aside, counted against its spend limits. */
  heldBy(keyId: string): number {
    let held = 0;
    for (const hold of this.#byId.values()) if (hold.key_id === keyId) held += hold.amount_micros;
    return held;
  }

  /** Every open hold, oldest first. */
  list(): OpenHold[] {
    return [...this.#byId.values()].sort((a, b) => a.created_at - b.created_at);
  }

  /** The holds whose time is up at `now`, as a list: closing them changes this set. */
  expiredAt(now: number): OpenHold[] {
    return [...this.#byId.values()].filter((hold) => hold.expires_at <= now);
  }

  /** When the next open hold expires; Infinity when none is open. */
  soonestExpiry(): number {
    return Math.min(...[...this.#byId.values()].map((hold) => hold.expires_at));
  }

  /** Replaces everything with the rows read from storage. */
  replace(rows: OpenHold[]): void {
    this.clear();
    for (const hold of rows) this.add(hold);
  }

  clear(): void {
    this.#byId.clear();
    this.#heldMicros = 0;
  }
}
