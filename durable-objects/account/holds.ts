import type { OpenHold } from './statements';

/**
 * D3: a ceiling on the holds of requests in flight (chat, scrape, and any purpose not named
 * below), each of which renews or settles through this serialization point while it runs.
 */
export const MAX_OPEN_HOLDS = 128;
/**
 * D29, in an organization: the in-flight holds (the ceiling above) each member may always have
 * open, even when the organization's MAX_OPEN_HOLDS are taken: a member beyond its share draws on
 * what is left of the shared MAX_OPEN_HOLDS, so one runaway member cannot lock the others out.
 */
export const MEMBER_OPEN_HOLDS_SHARE = 16;
/** D29: the in-flight holds an organization keeps open at most, its members' shares included. */
export const MAX_ORG_OPEN_HOLDS = 4 * MAX_OPEN_HOLDS;
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
  /** D29, in an organization: each member's open in-flight (not long-lived) holds. */
  #inFlightByMember = new Map<string, number>();

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

  /**
   * D29, in an organization: like `fullFor`, for a member's hold. An in-flight hold is refused only
   * when the member has its MEMBER_OPEN_HOLDS_SHARE open and the organization its MAX_OPEN_HOLDS,
   * or the organization has MAX_ORG_OPEN_HOLDS; the count answered is the member's own.
   */
  fullForMember(purpose: string, memberAccountId: string): number | null {
    if (isLongLived(purpose)) return this.fullFor(purpose);
    const open = this.#byId.size - this.#longLived;
    const mine = this.#inFlightByMember.get(memberAccountId) ?? 0;
    const full = open >= MAX_ORG_OPEN_HOLDS || (open >= MAX_OPEN_HOLDS && mine >= MEMBER_OPEN_HOLDS_SHARE);
    return full ? mine : null;
  }

  /** How many in-flight (not long-lived) holds are open: what MAX_OPEN_HOLDS bounds. */
  get inFlight(): number {
    return this.#byId.size - this.#longLived;
  }

  /** D29, in an organization: how many in-flight (not long-lived) holds of one member are open. */
  inFlightOf(memberAccountId: string): number {
    return this.#inFlightByMember.get(memberAccountId) ?? 0;
  }

  /** D29, in an organization: how many holds of one member are open (every purpose). */
  openByMember(memberAccountId: string): number {
    let open = 0;
    for (const hold of this.#byId.values()) if (hold.member_account_id === memberAccountId) open++;
    return open;
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
    else if (hold.member_account_id !== null) this.#countMember(hold.member_account_id, 1);
  }

  remove(hold: OpenHold): void {
    this.#byId.delete(hold.id);
    this.#heldMicros -= hold.amount_micros;
    if (isLongLived(hold.purpose)) this.#longLived--;
    else if (hold.member_account_id !== null) this.#countMember(hold.member_account_id, -1);
  }

  #countMember(memberAccountId: string, by: 1 | -1): void {
    const open = (this.#inFlightByMember.get(memberAccountId) ?? 0) + by;
    if (open > 0) this.#inFlightByMember.set(memberAccountId, open);
    else this.#inFlightByMember.delete(memberAccountId);
  }

  /** What one key's open holds keep aside, counted against its spend limits. */
  heldBy(keyId: string): number {
    let held = 0;
    for (const hold of this.#byId.values()) if (hold.key_id === keyId) held += hold.amount_micros;
    return held;
  }

  /** D35: what the open holds of several keys (a key and its sub-keys) keep aside, counted against that key's limits. */
  heldByAny(keyIds: ReadonlySet<string>): number {
    let held = 0;
    for (const hold of this.#byId.values()) if (hold.key_id !== null && keyIds.has(hold.key_id)) held += hold.amount_micros;
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
    this.#inFlightByMember.clear();
  }
}
