/**
 * An upstream's `Retry-After` (RFC 9110 §10.2.3: delay-seconds or an HTTP date) in ms from `now`;
 * undefined when absent or unreadable. A date in the past reads as 0.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and zone in letters (`Wed, 02 Dec 2026 09:00:30 GMT`); Date.parse would read "1.5" as a date.
  const at = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
