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

/**
 * Takes one of this hour's wrong-code attempts for `ip` (D4) if fewer than `limit` were used, in
 * one conditional upsert, before the code is compared; `refundWrongCode` gives it back when the
 * code was right. Answers the hour's attempts now used, or null when its allowance is used up.
 */
export async function reserveWrongCode(db: Database, ip: string, hour: string, limit: number): Promise<number | null> {
  const rows = await db
    .insert(ipHourlyCounters)
    .values({ ip, hour, wrongClaimCodes: 1 })
    .onConflictDoUpdate({
      target: [ipHourlyCounters.ip, ipHourlyCounters.hour],
      set: { wrongClaimCodes: sql`${ipHourlyCounters.wrongClaimCodes} + 1` },
      setWhere: lt(ipHourlyCounters.wrongClaimCodes, limit),
    })
    .returning({ wrongClaimCodes: ipHourlyCounters.wrongClaimCodes })
    .all();
  return rows[0]?.wrongClaimCodes ?? null;
}

export async function refundWrongCode(db: Database, ip: string, hour: string): Promise<void> {
  await db
    .update(ipHourlyCounters)
    .set({ wrongClaimCodes: sql`max(${ipHourlyCounters.wrongClaimCodes} - 1, 0)` })
    .where(and(eq(ipHourlyCounters.ip, ip), eq(ipHourlyCounters.hour, hour)))
    .run();
}

/** Drops the hourly counters (per IP, and of funding requests per account) of hours before `hour` (the cron sweep). */
export async function deleteHourlyCountersBefore(db: Database, hour: string): Promise<void> {
  await db.batch([db.delete(ipHourlyCounters).where(lt(ipHourlyCounters.hour, hour)), db.delete(fundingRequestCounters).where(lt(fundingRequestCounters.hour, hour))]);
}

/** Counts one sign-in challenge for `ip` this hour; null once `limit` is reached (one statement). */
export async function takeSignInChallenge(db: Database, ip: string, hour: string, limit: number): Promise<number | null> {
  const rows = await db
    .insert(ipHourlyCounters)
    .values({ ip, hour, signInChallenges: 1 })
    .onConflictDoUpdate({
      target: [ipHourlyCounters.ip, ipHourlyCounters.hour],
      set: { signInChallenges: sql`${ipHourlyCounters.signInChallenges} + 1` },
      setWhere: lt(ipHourlyCounters.signInChallenges, limit),
    })
    .returning({ signInChallenges: ipHourlyCounters.signInChallenges })
    .all();
  return rows[0]?.signInChallenges ?? null;
}

/**
 * Takes one of this hour's failed keyless x402 payments for `ip` if fewer than `limit` were used
 * (one conditional upsert, before any chain call); `refundX402Attempt` gives it back when the
 * payment settled. Null when the allowance is used up.
 */
export async function reserveX402Attempt(db: Database, ip: string, hour: string, limit: number): Promise<number | null> {
  const rows = await db
    .insert(ipHourlyCounters)
    .values({ ip, hour, x402Attempts: 1 })
    .onConflictDoUpdate({
      target: [ipHourlyCounters.ip, ipHourlyCounters.hour],
      set: { x402Attempts: sql`${ipHourlyCounters.x402Attempts} + 1` },
      setWhere: lt(ipHourlyCounters.x402Attempts, limit),
    })
    .returning({ x402Attempts: ipHourlyCounters.x402Attempts })
    .all();
  return rows[0]?.x402Attempts ?? null;
}

export async function refundX402Attempt(db: Database, ip: string, hour: string): Promise<void> {
  await db
    .update(ipHourlyCounters)
    .set({ x402Attempts: sql`max(${ipHourlyCounters.x402Attempts} - 1, 0)` })
    .where(and(eq(ipHourlyCounters.ip, ip), eq(ipHourlyCounters.hour, hour)))
    .run();
}
