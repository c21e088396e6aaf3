import { eq } from 'drizzle-orm';
import type { Database } from '.';
import { webJobs } from './schema';

export async function insertWebJob(db: Database, job: typeof webJobs.$inferInsert): Promise<void> {
  await db.insert(webJobs).values(job).run();
}

/** D35: the key that started a job, for a sub-key polling it; null for a job from before keys were recorded, undefined for none. */
export async function webJobKey(db: Database, id: string): Promise<string | null | undefined> {
  return (await db.select({ keyId: webJobs.keyId }).from(webJobs).where(eq(webJobs.id, id)).get())?.keyId;
}

export async function webJobIdsOf(db: Database, accountId: string): Promise<string[]> {
  return (await db.select({ id: webJobs.id }).from(webJobs).where(eq(webJobs.accountId, accountId)).all()).map((row) => row.id);
}

export async function deleteWebJobsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(webJobs).where(eq(webJobs.accountId, accountId)).run();
}
