import type { OpenHold } from './statements';

/**
 * D3: a ceiling on the holds of requests in flight (chat, scrape, and any purpose not named
 * below), each of which renews or settles through this serialization point while it runs.
 */
export const MAX_OPEN_HOLDS = 128;
/**
 * The ceiling of long-lived holds: queued work that waits minutes to an hour for a render or a
 * crawl (image and video jobs, crawl, extract, and sync image and speech renders, which are
 * recorded as jobs). They cost this Durable Object nothing while they wait, so they have their own,
 * larger ceiling and never count against the one above: 500 queued jobs never block a chat.
 */
export const MAX_OPEN_JOB_HOLDS = 1024;
/** A hold's purpose is `<kind>` or `<kind>:<model>`; these kinds are long-lived. */
const LONG_LIVED_KINDS = new Set(['image-job', 'video', 'crawl', 'extract', 'image', 'speech']);

export function isLongLived(purpose: string): boolean {
  const colon = purpose.indexOf(':');
  return LONG_LIVED_KINDS.has(colon < 0 ? purpose : purpose.slice(0, colon));
}

/**
 * The account's open holds, in memory: the `holds` table as last committed, and the sum it keeps
 * aside, so a hold reads neither. Only the ledger changes it, after its transaction has committed.
 */
export class OpenHolds {
  #byId = new Map<string, OpenHold>();
  #heldMicros = 0;
  #longLived = 0;

  get size(): number {
    return this.#byId.size;
  }

  /**
   * How many holds share the ceiling a new hold of `purpose` falls under, when that ceiling is
   * reached (the hold is refused: D3's 429); null when there is room.
   */
  fullFor(purpose: string): number | null {
    const open = isLongLived(purpose) ? this.#longLived : this.#byId.size - this.#longLived;
    return open >= (isLongLived(purpose) ? MAX_OPEN_JOB_HOLDS : MAX_OPEN_HOLDS) ? open : null;
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
    if (isLongLived(hold.purpose)) this.#longLived++;
  }

  remove(hold: OpenHold): void {
    this.#byId.delete(hold.id);
    this.#heldMicros -= hold.amount_micros;
    if (isLongLived(hold.purpose)) this.#longLived--;
  }

  /** What one key's open holds keep aside, counted against its spend limits. */
  heldBy(keyId: string): number {
    let held = 0;
    for (const hold of this.#byId.values()) if (hold.key_id === keyId) held += hold.amount_micros;
    return held;
  }

  /** D29, in an organization: what one member's open holds keep aside, counted against its monthly cap. */
  heldByMember(memberAccountId: string): number {
    let held = 0;
    for (const hold of this.#byId.values()) if (hold.member_account_id === memberAccountId) held += hold.amount_micros;
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
    this.#longLived = 0;
  }
}
