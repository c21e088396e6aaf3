/**
 * The account's one alarm, which releases expired holds and charges a due auto top-up, set with as
 * few storage calls as possible: it remembers when it is set for, and collects the wake-up times a
 * call asks for (its new holds' expiries, a top-up to charge) so the call ends with one `setAlarm`
 * at most, and none when the alarm already fires sooner.
 */
export class ExpiryAlarm {
  readonly #storage: DurableObjectStorage;
  /** When the alarm is set for, so a hold costs no extra storage call. */
  #at: number | null = null;
  /** The soonest expiry among holds made since the alarm was last looked at. */
  #next = Infinity;

  constructor(storage: DurableObjectStorage) {
    this.#storage = storage;
  }

  async load(): Promise<void> {
    this.#at = await this.#storage.getAlarm();
  }

  /** Asks for the alarm by `at`; `schedule` sets it. */
  wakeBy(at: number): void {
    this.#next = Math.min(this.#next, at);
  }

  /** The alarm has gone off, so nothing is set any more. */
  fired(): void {
    this.#at = null;
  }

  /** Sets the alarm for the soonest expiry asked for unless it already fires sooner. */
  async schedule(): Promise<void> {
    const at = this.#next;
    this.#next = Infinity;
    if (!Number.isFinite(at) || (this.#at !== null && this.#at <= at)) return;
    this.#at = at;
    await this.#storage.setAlarm(at);
  }

  async delete(): Promise<void> {
    await this.#storage.deleteAlarm();
    this.#at = null;
  }
}
