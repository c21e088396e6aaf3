/**
 * Requests per minute per purpose (a free model's limit, `HoldRequest.perMinute`): the times of
 * the last minute's holds, kept in the object's memory only, so nothing is written and the window
 * starts empty when the object does. One account's object sees all its holds, so the count is
 * exact while it runs.
 */
export class RateWindow {
  readonly #times = new Map<string, number[]>();

  /** Seconds until one more fits under `perMinute`, or null when it fits now. */
  wait(purpose: string, perMinute: number, now: number): number | null {
    const recent = (this.#times.get(purpose) ?? []).filter((at) => at > now - 60_000);
    this.#times.set(purpose, recent);
    if (recent.length < perMinute) return null;
    return Math.max(1, Math.ceil((recent[recent.length - perMinute]! + 60_000 - now) / 1000));
  }

  /** Counts one hold placed for `purpose`. */
  note(purpose: string, now: number): void {
    const recent = this.#times.get(purpose) ?? [];
    recent.push(now);
    this.#times.set(purpose, recent);
  }
}
