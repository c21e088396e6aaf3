import type { Database } from '../db';
import { refundAttempt, reserveAttempt } from '../db/claims';
import { refundWrongCode, reserveWrongCode } from '../db/ip-counters';

/** D4: wrong codes a claim takes before it is locked, and wrong codes per IP per hour on the verification pages. */
export const WRONG_CODES_PER_CLAIM = 5;
export const WRONG_CODES_PER_IP_PER_HOUR = 10;

const HOUR_MS = 3_600_000;

/** The UTC hour of `now` (`2026-11-25T10`) and the seconds left in it, for `Retry-After`. */
export function utcHour(now: number): { hour: string; secondsLeft: number } {
  const start = now - (now % HOUR_MS);
  return { hour: new Date(start).toISOString().slice(0, 13), secondsLeft: Math.ceil((start + HOUR_MS - now) / 1000) };
}

/** One code attempt, taken before the code is compared. */
export type Attempt =
  | {
      ok: true;
      /** Attempts used, this one included: of the claim's five, and of the IP's ten this hour. */
      claimUsed: number;
      ipUsed: number;
      /** Seconds to the end of the hour, when the IP's allowance starts again. */
      ipRetryAfterSeconds: number;
      /** Gives the attempt back: the code was right. */
      refund: () => Promise<void>;
    }
  | { ok: false; reason: 'ip_limited'; retryAfterSeconds: number }
  | { ok: false; reason: 'claim_locked' };

/**
 * Takes an attempt from both allowances, the IP's hour and the claim's five, before the code is
 * compared: a burst of guesses sent at once cannot test more codes than the limits allow. A code
 * that turns out right gives both back, so only wrong codes count.
 */
export async function takeAttempt(db: Database, claimId: string, ip: string, now: number): Promise<Attempt> {
  const { hour, secondsLeft } = utcHour(now);
  const ipUsed = await reserveWrongCode(db, ip, hour, WRONG_CODES_PER_IP_PER_HOUR);
  if (ipUsed === null) return { ok: false, reason: 'ip_limited', retryAfterSeconds: secondsLeft };
  const claimUsed = await reserveAttempt(db, claimId, WRONG_CODES_PER_CLAIM);
  if (claimUsed === null) {
    await refundWrongCode(db, ip, hour);
    return { ok: false, reason: 'claim_locked' };
  }
  const refund = async () => void (await Promise.all([refundWrongCode(db, ip, hour), refundAttempt(db, claimId)]));
  return { ok: true, claimUsed, ipUsed, ipRetryAfterSeconds: secondsLeft, refund };
}
