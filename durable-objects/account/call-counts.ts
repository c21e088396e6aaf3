import type { AccountOp } from './types';

/** The request path's calls: the Worker's batches, and the money calls other Durable Objects make directly. */
export type CountedMethod = 'apply' | 'authorizeHold' | 'settle' | 'release' | 'extendHold' | 'holdsForMember' | 'poolForMember' | 'returnPoolForMember';
type BatchMethod = 'apply' | 'holdsForMember' | 'poolForMember' | 'returnPoolForMember';

/** What `GET /admin/accounts/{id}` shows of the counts. */
export interface CallCountsView {
  /** When this object started counting (it was loaded into memory); the counts start at 0 then. */
  since: number;
  /** RPC calls that reached this object: each is one turn of its input queue. */
  calls: number;
  byMethod: Partial<Record<CountedMethod, number>>;
  /** The operations those calls carried (a batch carries several; a direct call is one). */
  ops: Partial<Record<AccountOp['op'], number>>;
}

/**
 * How many calls reach this account's Durable Object, and what they carry: the figure that says
 * whether one busy account meets the object's limit of about a thousand calls a second. Counted
 * in memory only (a few additions per call, nothing written), so the counts restart when the
 * object does, at `since`.
 */
export class CallCounts {
  readonly #since = Date.now();
  #calls = 0;
  readonly #byMethod: Partial<Record<CountedMethod, number>> = {};
  readonly #ops: Partial<Record<AccountOp['op'], number>> = {};

  /** One `apply` call and the operations of its batch. */
  batch(ops: readonly AccountOp[]): void {
    this.#method('apply');
    for (const { op } of ops) this.#op(op);
  }

  /** One call of an organization's members' holds (D29), carrying `holds` of them. */
  members(holds: number): void {
    this.#method('holdsForMember');
    this.#ops.hold = (this.#ops.hold ?? 0) + holds;
  }

  /** One call of a member's hold pool (D29, org-hold-pool.ts): holds placed ahead of its requests, or given back unused (not counted as operations: no request made them). */
  pool(method: 'poolForMember' | 'returnPoolForMember'): void {
    this.#method(method);
  }

  /** One direct call, which carries one operation. */
  direct(method: Exclude<CountedMethod, BatchMethod>): void {
    this.#method(method);
    this.#op(DIRECT_OP[method]);
  }

  view(): CallCountsView {
    return { since: this.#since, calls: this.#calls, byMethod: { ...this.#byMethod }, ops: { ...this.#ops } };
  }

  #method(method: CountedMethod): void {
    this.#calls++;
    this.#byMethod[method] = (this.#byMethod[method] ?? 0) + 1;
  }

  #op(op: AccountOp['op']): void {
    this.#ops[op] = (this.#ops[op] ?? 0) + 1;
  }
}

const DIRECT_OP: Record<Exclude<CountedMethod, BatchMethod>, AccountOp['op']> = {
  authorizeHold: 'hold',
  settle: 'settle',
  release: 'release',
  extendHold: 'extend',
};
