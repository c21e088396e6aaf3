import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '.';
import { ipDailyCounters } from './schema';

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
