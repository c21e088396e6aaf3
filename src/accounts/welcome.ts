import type { Database } from '../db';
import { takeWelcomeGrant } from '../db/ip-counters';
import { takeWelcomeBudget } from '../db/welcome-budget';
import { parseUsd } from '../money';

/** Welcome grants per IP limit key (an IPv4 address or an IPv6 /64) per UTC day. */
export const WELCOME_GRANTS_PER_IP_PER_DAY = 1;
/** The budget across all callers per UTC day when `WELCOME_CREDITS_DAILY_USD` is unset. */
export const DEFAULT_WELCOME_DAILY_USD = '50';

/** `WELCOME_CREDITS_DAILY_USD` in micro-dollars: unset is the default, unreadable is 0 (no grants). */
export function welcomeDailyBudgetMicros(env: Env): number {
  const text = env.WELCOME_CREDITS_DAILY_USD?.trim() || DEFAULT_WELCOME_DAILY_USD;
  return Math.max(0, parseUsd(text) ?? 0);
}

/**
 * The welcome credit a new registration from `ipKey` gets today, in micro-dollars: 0 unless
 * `WELCOME_CREDITS_USD` is set, the caller's address has its grant left today, and today's budget
 * across everyone still holds a whole grant. The address's grant is taken first: a caller refused
 * by its own allowance never spends the shared budget.
 */
export async function takeWelcomeCredit(env: Env, db: Database, ipKey: string, day: string): Promise<number> {
  const micros = parseUsd(env.WELCOME_CREDITS_USD || '0') ?? 0;
  if (micros <= 0) return 0;
  if (!(await takeWelcomeGrant(db, ipKey, day, WELCOME_GRANTS_PER_IP_PER_DAY))) return 0;
  return (await takeWelcomeBudget(db, day, micros, welcomeDailyBudgetMicros(env))) ? micros : 0;
}
