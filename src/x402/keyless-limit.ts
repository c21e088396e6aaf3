import type { Context } from 'hono';
import { clientIpKey } from '../client-ip';
import { database } from '../db';
import { refundX402Attempt, reserveX402Attempt } from '../db/ip-counters';
import type { AppEnv } from '../env';
import { GatewayError } from '../errors';
import { utcHour } from '../human/limits';

/**
 * x402 payments that fail, per IP (an IPv6 /64, an IPv4 address) per UTC hour, keyless or with a
 * key (a free account's key costs nothing). Each attempt costs several chain calls (verification
 * simulates the transfer) before it is known to be bad; one that settles is given back, so paying
 * is never limited.
 */
export const KEYLESS_X402_FAILURES_PER_IP_PER_HOUR = 20;

/**
 * Runs `settle` (a payment's verification and settlement) only if the caller's address has
 * attempts left this hour: 429 `rate_limit_exceeded` with `Retry-After` otherwise, before any chain
 * call. A payment that settles does not count.
 */
export async function limitKeylessAttempt<T>(c: Context<AppEnv>, settle: () => Promise<T>, now = Date.now()): Promise<T> {
  const db = database(c.env);
  const ip = clientIpKey(c);
  const { hour, secondsLeft } = utcHour(now);
  if ((await reserveX402Attempt(db, ip, hour, KEYLESS_X402_FAILURES_PER_IP_PER_HOUR)) === null) {
    throw new GatewayError(
      'rate_limit_exceeded',
      `At most ${KEYLESS_X402_FAILURES_PER_IP_PER_HOUR} x402 payments that fail per IP address (IPv6: per /64) per UTC hour; retry later.`,
      { retryAfter: secondsLeft },
    );
  }
  const settled = await settle();
  await refundX402Attempt(db, ip, hour);
  return settled;
}
