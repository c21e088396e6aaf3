import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '.';
import { fundingRequestCounters, ipDailyCounters, ipHourlyCounters } from './schema';

/**
 * Per-IP counters. Every `ip` here is a limit key from `src/client-ip.ts` (`clientIpKey`): an IPv4
 * address, or an IPv6 /64, never the raw address.
 */

/** Counts one registration for `ip` today and returns the new count, atomically (one statement). */
export async function countRegistration(db: Database, ip: string, day: string): Promise<number> {
  const row = await db
    .insert(ipDailyCounters)
    .values({ ip, day, registrations: 1 })
    .onConflictDoUpdate({
      target: [ipDailyCounters.ip, ipDailyCounters.day],
      set: { registrations: sql`${ipDailyCounters.registrations} + 1` },
    })
    .returning({ registrations: ipDailyCounters.registrations })
    .get();
  return row.registrations;
}

/** Takes one of today's welcome grants for `ip` if any is left; one conditional statement, so never over. */
export async function takeWelcomeGrant(db: Database, ip: string, day: string, perDay: number): Promise<boolean> {
  const row = await db
    .update(ipDailyCounters)
    .set({ welcomeGrants: sql`${ipDailyCounters.welcomeGrants} + 1` })
    .where(and(eq(ipDailyCounters.ip, ip), eq(ipDailyCounters.day, day), lt(ipDailyCounters.welcomeGrants, perDay)))
    .returning({ welcomeGrants: ipDailyCounters.welcomeGrants })
    .get();
  return row !== undefined;
}

/** Counts one funding session started from a fund page by `ip` today and returns the new count (one statement). */
export async function countFundingSession(db: Database, ip: string, day: string): Promise<number> {
  const row = await db
    .insert(ipDailyCounters)
    .values({ ip, day, fundingSessions: 1 })
    .onConflictDoUpdate({
      target: [ipDailyCounters.ip, ipDailyCounters.day],
      set: { fundingSessions: sql`${ipDailyCounters.fundingSessions} + 1` },
    })
    .returning({ fundingSessions: ipDailyCounters.fundingSessions })
    .get();
  return row.fundingSessions;
}

/** The per-IP hourly allowances (`ip_hourly_counters`' columns). */
type HourlyAllowance = 'wrongClaimCodes' | 'signInChallenges' | 'x402Attempts';

/**
 * Takes one of this hour's `column` allowance for `ip` if fewer than `limit` were used, in one
 * conditional upsert, before the work it guards; answers the hour's count now used, or null when
 * the allowance is used up.
 */
async function takeHourly(db: Database, column: HourlyAllowance, ip: string, hour: string, limit: number): Promise<number | null> {
  const counter = ipHourlyCounters[column];
  const rows = await db
    .insert(ipHourlyCounters)
    .values({ ip, hour, [column]: 1 })
    .onConflictDoUpdate({ target: [ipHourlyCounters.ip, ipHourlyCounters.hour], set: { [column]: sql`${counter} + 1` }, setWhere: lt(counter, limit) })
    .returning({ used: counter })
    .all();
  return rows[0]?.used ?? null;
}

/** Gives back one of this hour's `column` allowance (the guarded work turned out fine). */
async function refundHourly(db: Database, column: HourlyAllowance, ip: string, hour: string): Promise<void> {
  await db
    .update(ipHourlyCounters)
    .set({ [column]: sql`max(${ipHourlyCounters[column]} - 1, 0)` })
    .where(and(eq(ipHourlyCounters.ip, ip), eq(ipHourlyCounters.hour, hour)))
    .run();
}

/** D4: one of this hour's wrong-code attempts for `ip`, taken before the code is compared; `refundWrongCode` when it was right. */
export const reserveWrongCode = (db: Database, ip: string, hour: string, limit: number) => takeHourly(db, 'wrongClaimCodes', ip, hour, limit);
export const refundWrongCode = (db: Database, ip: string, hour: string) => refundHourly(db, 'wrongClaimCodes', ip, hour);

/** One sign-in challenge for `ip` this hour; null once `limit` is reached. */
export const takeSignInChallenge = (db: Database, ip: string, hour: string, limit: number) => takeHourly(db, 'signInChallenges', ip, hour, limit);

/** One of this hour's failed keyless x402 payments for `ip`, before any chain call; `refundX402Attempt` when the payment settled. */
export const reserveX402Attempt = (db: Database, ip: string, hour: string, limit: number) => takeHourly(db, 'x402Attempts', ip, hour, limit);
export const refundX402Attempt = (db: Database, ip: string, hour: string) => refundHourly(db, 'x402Attempts', ip, hour);

/** Drops the hourly counters (per IP, and of funding requests per account) of hours before `hour` (the cron sweep). */
export async function deleteHourlyCountersBefore(db: Database, hour: string): Promise<void> {
  await db.batch([db.delete(ipHourlyCounters).where(lt(ipHourlyCounters.hour, hour)), db.delete(fundingRequestCounters).where(lt(fundingRequestCounters.hour, hour))]);
}
