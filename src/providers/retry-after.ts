/**
 * An upstream's `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date) in ms from `now`;
 * undefined when absent or unreadable. A date in the past reads as 0.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
