import { OpenHolds } from './holds';
import { run, SQL, type AccountRow, type OpenHold } from './statements';

/**
 * What the hot path reads from memory instead of SQLite, shared by the account's modules. The
 * Durable Object is the only writer of its storage, so these copies stay true; a module changes
 * them only after its transaction has committed. The ledger writes the balance, funding and the
 * open holds; the Durable Object loads and clears the rest.
 */
export class AccountMemory {
  /** Null until `create`: a stray key for an unknown account must not allocate storage. */
  account: AccountRow | null = null;
  readonly holds = new OpenHolds();

  load(storage: DurableObjectStorage): void {
    this.account = run<AccountRow>(storage, SQL.account)[0] ?? null;
    this.holds.replace(run<OpenHold>(storage, SQL.openHolds));
  }

  clear(): void {
    this.account = null;
    this.holds.clear();
  }
}
