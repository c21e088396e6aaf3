import { eq } from 'drizzle-orm';
import type { Database } from '.';
import { webJobs } from './schema';

export async function insertWebJob(db: Database, job: typeof webJobs.$inferInsert): Promise<void> {
  await db.insert(webJobs).values(job).run();
}

export async function webJobIdsOf(db: Database, accountId: string): Promise<string[]> {
  return (await db.select({ id: webJobs.id }).from(webJobs).where(eq(webJobs.accountId, accountId)).all()).map((row) => row.id);
}

export async function deleteWebJobsOf(db: Database, accountId: string): Promise<void> {
  await db.delete(webJobs).where(eq(webJobs.accountId, accountId)).run();
}
