import { database } from '../db';
import {
  deleteEndedMediaJobs,
  deleteExpiredGenerations,
  deleteIntentsExpiredBefore,
  deleteIpDaysBefore,
  deleteWebJobs,
  deleteWelcomeDaysBefore,
  endedMediaJobs,
  expiredGenerations,
  webJobsCreatedBefore,
} from '../db/retention';
import { accountPrefix } from '../media/keys';
import {
  dayKeyBefore,
  FUNDING_INTENT_RETENTION_AFTER_EXPIRY_MS,
  GENERATION_RETENTION_AFTER_EXPIRY_MS,
  IP_DAILY_COUNTER_RETENTION_DAYS,
  mediaJobRetentionMs,
  WEB_JOB_RETENTION_MS,
  WELCOME_DAY_RETENTION_DAYS,
} from './retention';

/**
 * What one cron run may delete: rows per table, and R2 objects in all (each R2 `delete` takes up
 * to 1,000 keys, each web job costs a Durable Object call and a listing). The cron runs every 5
 * minutes, so a backlog drains over runs while each run stays far inside its subrequest limit.
 */
export interface SweepLimits {
  rows: number;
  objects: number;
  webJobs: number;
}

export const SWEEP_LIMITS: SweepLimits = { rows: 500, objects: 500, webJobs: 50 };

export interface SweepReport {
  generations: number;
  mediaJobs: number;
  webJobs: number;
  objects: number;
  ipDays: number;
  welcomeDays: number;
  intents: number;
}

/**
 * Cron: deletes what is past its retention (`./retention.ts`), oldest first, in bounded batches.
 * Objects go before their rows, so a run cut short leaves rows that the next run finishes; every
 * delete is idempotent, so two runs at once only repeat each other.
 */
export async function sweepStorage(env: Env, now: number, limits: SweepLimits = SWEEP_LIMITS): Promise<SweepReport> {
  const db = database(env);
  const budget = { objects: limits.objects };
  const report: SweepReport = { generations: 0, mediaJobs: 0, webJobs: 0, objects: 0, ipDays: 0, welcomeDays: 0, intents: 0 };

  const deleteObjects = async (keys: string[]) => {
    for (let i = 0; i < keys.length; i += 1000) await env.MEDIA.delete(keys.slice(i, i + 1000));
    budget.objects -= keys.length;
    report.objects += keys.length;
  };

  // Rows whose objects would pass the run's object budget wait for the next run.
  const withinBudget = <T extends { keys: string[] | null }>(rows: T[]): T[] => {
    const taken: T[] = [];
    let keys = 0;
    for (const row of rows) {
      const next = keys + (row.keys?.length ?? 0);
      if (next > budget.objects) break;
      taken.push(row);
      keys = next;
    }
    return taken;
  };

  const generationCutoff = now - GENERATION_RETENTION_AFTER_EXPIRY_MS;
  const generations = withinBudget(await expiredGenerations(db, generationCutoff, limits.rows));
  await deleteObjects(generations.flatMap((row) => row.keys));
  await deleteExpiredGenerations(db, generations.map((row) => row.id), generationCutoff);
  report.generations = generations.length;

  const mediaCutoff = now - mediaJobRetentionMs(env);
  const jobs = withinBudget(await endedMediaJobs(db, mediaCutoff, limits.rows));
  await deleteObjects(jobs.flatMap((row) => row.keys ?? []));
  await deleteEndedMediaJobs(db, jobs.map((row) => row.id), mediaCutoff);
  report.mediaJobs = jobs.length;

  const swept: string[] = [];
  for (const job of await webJobsCreatedBefore(db, now - WEB_JOB_RETENTION_MS, limits.webJobs)) {
    if (budget.objects <= 0) break;
    await deleteObjects(await webJobObjects(env.MEDIA, job.accountId, job.id));
    await env.WEB_JOB.get(env.WEB_JOB.idFromName(job.id)).purge();
    swept.push(job.id);
  }
  await deleteWebJobs(db, swept);
  report.webJobs = swept.length;

  report.ipDays = await deleteIpDaysBefore(db, dayKeyBefore(now, IP_DAILY_COUNTER_RETENTION_DAYS - 1), limits.rows);
  report.welcomeDays = await deleteWelcomeDaysBefore(db, dayKeyBefore(now, WELCOME_DAY_RETENTION_DAYS), limits.rows);
  report.intents = await deleteIntentsExpiredBefore(db, now - FUNDING_INTENT_RETENTION_AFTER_EXPIRY_MS, limits.rows);
  return report;
}

/** A web job's R2 objects: its result set and any large items left (they are deleted at settlement). */
async function webJobObjects(bucket: R2Bucket, accountId: string, jobId: string): Promise<string[]> {
  const base = `${accountPrefix('results', accountId)}${jobId}`;
  const listed = await bucket.list({ prefix: `${base}/`, limit: 1000 });
  return [`${base}.json`, ...listed.objects.map((object) => object.key)];
}
