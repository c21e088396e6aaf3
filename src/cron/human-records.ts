import { database } from '../db';
import { deleteEndedClaims, deleteOldClaimMails } from '../db/claims';
import { deleteHourlyCountersBefore } from '../db/ip-counters';
import { deleteExpiredChallenges } from '../db/passkeys';
import { deleteSessionsExpiredBefore } from '../db/sessions';
import { utcHour } from '../human/limits';

const DAY_MS = 86_400_000;

/**
 * Cron: drops what the claim flow and sign-in leave behind once it can matter no more: claims
 * that ended a day ago (approved ones stay, the record of who claimed), unused passkey
 * challenges, sessions expired a week ago, the hourly wrong-code counters of past hours, and
 * claim-mail records that left the per-address hour.
 */
export async function sweepHumanRecords(env: Env, now: number): Promise<void> {
  const db = database(env);
  await deleteEndedClaims(db, now - DAY_MS);
  await deleteExpiredChallenges(db, now);
  await deleteSessionsExpiredBefore(db, now - 7 * DAY_MS);
  await deleteHourlyCountersBefore(db, utcHour(now - 3_600_000).hour);
  await deleteOldClaimMails(db, now - 3_600_000);
}
