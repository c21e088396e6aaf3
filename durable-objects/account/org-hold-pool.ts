import type { ExpiryAlarm } from './alarm';
import { isLongLived, MEMBER_OPEN_HOLDS_SHARE } from './holds';
import type { OrgPeer, PoolGrantRequest } from './org-protocol';
import type { Hold, HoldRequest } from './types';

/**
 * D29: a member's requests would wait for two Durable Objects (member, then organization) where a
 * plain account's wait for one. The hold pool takes the second off the path: the organization
 * places a few holds ahead of the member's requests, for one unlimited key and one purpose, and
 * the member hands one to a request at once (no call out). Each is an ordinary organization hold
 * (`oh_<org>_...`): the request settles, renews and releases it in the organization like every member
 * hold, and the organization decided it as one (balance, cap, fair share). What the pool adds:
 * - holds are sized to the largest worst case the key asked for this purpose since its pool was
 *   last idle, and a request is served from the pool only when a hold covers its worst case;
 * - a hold is handed out only while it has a whole request lease left (its `ttlMs`);
 * - unused holds go back to the organization after POOL_IDLE_MS without a request, or once they
 *   can no longer cover a lease, so an idle member keeps nothing aside;
 * - a refusal (balance, cap, holds in flight) while the pool holds money gives the pool back and
 *   asks again, so the pool never refuses a request that would have been served without it.
 * Bounds: at most POOL_MAX_MICROS and 1/8 of the member's room (organization side, `grantPool`),
 * and the member's fair share of holds in flight (MEMBER_OPEN_HOLDS_SHARE), handed out or not. A
 * member removed (or an organization suspended) may still spend pooled holds until its next
 * refill is refused, which gives the rest back: about POOL_SIZE - REFILL_AT requests one after
 * another, at most POOL_SIZE at once, each within the cap and balance its hold was granted under.
 */

/** A pooled hold's life in the organization; it is handed out only while a request's lease fits in what is left. */
export const POOL_HOLD_TTL_MS = 90_000;
/** An unused pool goes back this long after its last request. */
export const POOL_IDLE_MS = 5_000;
/**
 * Pooled holds kept ready per key and purpose, and no more than the member's fair share of holds in
 * flight there. A refill starts when REFILL_AT are left (enough for the requests that arrive while
 * it is in flight): one organization call per POOL_SIZE - REFILL_AT requests, off their path.
 * Fewer refills is what makes a member's request cost what a plain account's does: locally they
 * share one thread (`npm run bench`, member section, added p50 over the plain account at c=1: a
 * pool of 8 refilled at 4 left +0.36 ms, 16 at 8 +0.12 to +0.24 ms, 16 at 4 +0.11 ms).
 */
const POOL_SIZE = MEMBER_OPEN_HOLDS_SHARE;
export const REFILL_AT = POOL_SIZE / 4;
/** A refill refused for one of these gives the whole pool back: the member may not spend there now. */
const STOPS_THE_POOL: ReadonlySet<string> = new Set(['not_member', 'membership_pending', 'account_suspended']);
/** After a refill failed or a refusal gave the pool back, no refill for this long. */
const POOL_COOLDOWN_MS = 5_000;

interface PooledHold {
  holdId: string;
  amountMicros: number;
  expiresAt: number;
}

/** The pool of one organization, key and purpose. */
interface Shelf {
  organizationId: string;
  keyId: string;
  purpose: string;
  /** The size the next refill asks for: the largest worst case seen. */
  amountMicros: number;
  holds: PooledHold[];
  /** The refill in flight, if any (one per shelf). */
  refill: Promise<void> | null;
  lastUsed: number;
  /** What the member could still hold in the organization after the last grant (a hold's `availableMicros`). */
  roomMicros: number;
}

/** Per organization: give-backs so far (a grant asked for before one is given back too) and when refills may start again. */
interface OrganizationState {
  generation: number;
  quietUntil: number;
}

type Row = { hold_id: string; organization_id: string; key_id: string; purpose: string; amount_micros: number; expires_at: number };

/** Whether a hold request may be served from a pool: an in-flight hold with a short lease and a cost. */
export function poolable(request: Pick<HoldRequest, 'purpose' | 'ttlMs' | 'maxMicros'>): boolean {
  return request.ttlMs !== undefined && request.ttlMs <= POOL_HOLD_TTL_MS / 3 && request.maxMicros > 0 && !isLongLived(request.purpose);
}

export class MemberHoldPool {
  readonly #storage: DurableObjectStorage;
  readonly #alarm: ExpiryAlarm;
  readonly #peer: (organizationId: string) => OrgPeer;
  /** This account's id and the organization it spends from now (a grant that comes back after a leave is returned). */
  readonly #self: () => { accountId: string; organizationId: string | null };
  readonly #shelves = new Map<string, Shelf>();
  readonly #organizations = new Map<string, OrganizationState>();

  constructor(storage: DurableObjectStorage, alarm: ExpiryAlarm, peer: (organizationId: string) => OrgPeer, self: () => { accountId: string; organizationId: string | null }) {
    this.#storage = storage;
    this.#alarm = alarm;
    this.#peer = peer;
    this.#self = self;
  }

  /** Reads the pool left by an earlier run of this object; the alarm gives it back (it has no recent use). */
  load(now: number): void {
    this.#shelves.clear();
    for (const row of this.#storage.sql.exec<Row>('SELECT hold_id, organization_id, key_id, purpose, amount_micros, expires_at FROM org_pool_holds').toArray()) {
      const shelf = this.#shelf(row.organization_id, row.key_id, row.purpose, row.amount_micros, 0);
      shelf.holds.push({ holdId: row.hold_id, amountMicros: row.amount_micros, expiresAt: row.expires_at });
    }
    if (this.#shelves.size > 0) this.#alarm.wakeBy(now);
  }

  /**
   * A pooled hold for this request, taken out of the pool (and its row) now; null when none covers
   * its worst case with a whole lease left. Either way the pool learns the request's size and
   * refills in the background.
   */
  take(organizationId: string, keyId: string, request: Omit<HoldRequest, 'keyHash'>, now: number): ({ ok: true } & Hold) | null {
    const shelf = this.#shelf(organizationId, keyId, request.purpose, request.maxMicros, now);
    shelf.lastUsed = now;
    const lease = request.ttlMs ?? POOL_HOLD_TTL_MS;
    const index = shelf.holds.findIndex((hold) => hold.amountMicros >= request.maxMicros && hold.expiresAt - now >= lease);
    const [taken] = index >= 0 ? shelf.holds.splice(index, 1) : [];
    if (taken) this.#storage.sql.exec('DELETE FROM org_pool_holds WHERE hold_id = ?', taken.holdId);
    this.#alarm.wakeBy(now + POOL_IDLE_MS);
    if (shelf.holds.length <= REFILL_AT) this.#refill(shelf, now);
    if (!taken) return null;
    return { ok: true, accountId: this.#self().accountId, keyId, holdId: taken.holdId, amountMicros: taken.amountMicros, availableMicros: shelf.roomMicros };
  }

  /** Whether the pool keeps anything aside in `organizationId`, or may be about to (a refill in flight). */
  holding(organizationId: string): boolean {
    for (const shelf of this.#shelves.values()) if (shelf.organizationId === organizationId && (shelf.holds.length > 0 || shelf.refill)) return true;
    return false;
  }

  /**
   * Gives back every pooled hold of `organizationId`, including what refills in flight bring
   * (awaited), and starts no refill there for POOL_COOLDOWN_MS: after a refusal, so the request
   * asks again with nothing of the pool left aside, and on a leave.
   */
  async giveBack(organizationId: string, now: number): Promise<void> {
    const state = this.#organization(organizationId);
    state.generation++;
    state.quietUntil = now + POOL_COOLDOWN_MS;
    const ids: string[] = [];
    const refills: Promise<void>[] = [];
    for (const shelf of this.#shelves.values()) {
      if (shelf.organizationId !== organizationId) continue;
      ids.push(...shelf.holds.map((hold) => hold.holdId));
      shelf.holds = [];
      if (shelf.refill) refills.push(shelf.refill);
    }
    await Promise.all([this.#return(organizationId, ids), ...refills]);
  }

  /** The alarm: gives back pools idle for POOL_IDLE_MS and holds that can no longer cover a lease. */
  async returnIdle(now: number): Promise<void> {
    const byOrganization = new Map<string, string[]>();
    for (const [name, shelf] of this.#shelves) {
      const idle = now - shelf.lastUsed >= POOL_IDLE_MS;
      const back = shelf.holds.filter((hold) => idle || hold.expiresAt - now < POOL_HOLD_TTL_MS / 3);
      if (back.length > 0) {
        shelf.holds = shelf.holds.filter((hold) => !back.includes(hold));
        byOrganization.set(shelf.organizationId, [...(byOrganization.get(shelf.organizationId) ?? []), ...back.map((hold) => hold.holdId)]);
      }
      if (idle && shelf.holds.length === 0 && !shelf.refill) this.#shelves.delete(name);
    }
    await Promise.all([...byOrganization].map(([organizationId, ids]) => this.#return(organizationId, ids)));
    this.#alarm.wakeBy(this.#nextWake());
  }

  /** When the alarm should look at the pool again: a shelf going idle, or a hold about to stop covering a lease. */
  #nextWake(): number {
    let next = Infinity;
    for (const shelf of this.#shelves.values()) {
      if (shelf.holds.length === 0) continue;
      next = Math.min(next, shelf.lastUsed + POOL_IDLE_MS, ...shelf.holds.map((hold) => hold.expiresAt - POOL_HOLD_TTL_MS / 3));
    }
    return next;
  }

  #shelf(organizationId: string, keyId: string, purpose: string, amountMicros: number, now: number): Shelf {
    const name = `${organizationId}\n${keyId}\n${purpose}`;
    let shelf = this.#shelves.get(name);
    if (!shelf) {
      shelf = { organizationId, keyId, purpose, amountMicros, holds: [], refill: null, lastUsed: now, roomMicros: 0 };
      this.#shelves.set(name, shelf);
    }
    shelf.amountMicros = Math.max(shelf.amountMicros, amountMicros);
    return shelf;
  }

  #organization(organizationId: string): OrganizationState {
    let state = this.#organizations.get(organizationId);
    if (!state) this.#organizations.set(organizationId, (state = { generation: 0, quietUntil: 0 }));
    return state;
  }

  /** What the pool keeps aside in `organizationId` now (the organization bounds the pool as a whole by it). */
  #pooledMicros(organizationId: string): number {
    let micros = 0;
    for (const shelf of this.#shelves.values()) if (shelf.organizationId === organizationId) for (const hold of shelf.holds) micros += hold.amountMicros;
    return micros;
  }

  /** Asks the organization for holds up to POOL_SIZE, in the background (one ask at a time per shelf). */
  #refill(shelf: Shelf, now: number): void {
    const state = this.#organization(shelf.organizationId);
    if (shelf.refill || now < state.quietUntil) return;
    const count = POOL_SIZE - shelf.holds.length;
    if (count <= 0) return;
    const generation = state.generation;
    const request: PoolGrantRequest = {
      memberAccountId: this.#self().accountId,
      keyId: shelf.keyId,
      purpose: shelf.purpose,
      amountMicros: shelf.amountMicros,
      count,
      ttlMs: POOL_HOLD_TTL_MS,
      pooledMicros: this.#pooledMicros(shelf.organizationId),
    };
    shelf.refill = this.#peer(shelf.organizationId)
      .grantPool(request)
      .then(async (granted) => {
        if (!granted.ok || granted.holds.length === 0) {
          state.quietUntil = Math.max(state.quietUntil, Date.now() + POOL_COOLDOWN_MS);
          // Removed, pending again, or the organization suspended: what is left goes back now (not
          // awaited here: the give-back waits for this refill).
          if (!granted.ok && STOPS_THE_POOL.has(granted.reason)) void this.giveBack(shelf.organizationId, Date.now());
          return;
        }
        // Given back meanwhile (a refusal, a leave), or the account spends elsewhere now: these go back too.
        if (state.generation !== generation || this.#self().organizationId !== shelf.organizationId) return this.#return(shelf.organizationId, granted.holds.map((hold) => hold.holdId));
        this.#storage.transactionSync(() => {
          for (const hold of granted.holds) {
            this.#storage.sql.exec(
              'INSERT INTO org_pool_holds (hold_id, organization_id, key_id, purpose, amount_micros, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
              hold.holdId,
              shelf.organizationId,
              shelf.keyId,
              shelf.purpose,
              hold.amountMicros,
              hold.expiresAt,
            );
          }
        });
        shelf.holds.push(...granted.holds);
        shelf.roomMicros = granted.availableMicros;
        this.#alarm.wakeBy(this.#nextWake());
        await this.#alarm.schedule();
      })
      .catch((err: unknown) => {
        state.quietUntil = Math.max(state.quietUntil, Date.now() + POOL_COOLDOWN_MS);
        console.error('hold pool not refilled', err);
      })
      .finally(() => {
        shelf.refill = null;
      });
  }

  /** Gives holds back to their organization; a failed return is logged (the holds then expire there, unused). */
  async #return(organizationId: string, holdIds: string[]): Promise<void> {
    if (holdIds.length === 0) return;
    this.#storage.transactionSync(() => {
      for (const holdId of holdIds) this.#storage.sql.exec('DELETE FROM org_pool_holds WHERE hold_id = ?', holdId);
    });
    try {
      await this.#peer(organizationId).returnPooled(this.#self().accountId, holdIds);
    } catch (err) {
      console.error('pooled holds not given back', err);
    }
  }
}
