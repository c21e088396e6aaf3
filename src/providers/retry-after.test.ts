import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

describe('retryAfterMs', () => {
  const now = Date.parse('2026-12-02T09:00:00Z');
  it.each([
    ['delay-seconds', '120', 120_000],
    ['an HTTP date', 'Wed, 02 Dec 2026 09:00:30 GMT', 30_000],
    ['an HTTP date past', 'Wed, 02 Dec 2026 08:59:00 GMT', 0],
    ['spaces around', ' 5 ', 5_000],
  ])('reads %s', (_, value, ms) => {
    expect(retryAfterMs(value, now)).toBe(ms);
  });

  it.each([null, '', 'soon', '-5', '1.5'])('reads %j as nothing', (value) => {
    expect(retryAfterMs(value, now)).toBeUndefined();
  });
});
