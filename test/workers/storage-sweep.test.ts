import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { database } from '../../src/db';
import { fundingIntents, generations, ipDailyCounters, mediaJobs, webJobs, welcomeCreditDays } from '../../src/db/schema';
import { dayKeyBefore } from '../../src/cron/retention';
import { sweepStorage, type SweepReport } from '../../src/cron/storage-sweep';

const DAY = 86_400_000;
const NOTHING: SweepReport = { generations: 0, mediaJobs: 0, webJobs: 0, objects: 0, ipDays: 0, welcomeDays: 0, intents: 0 };

const rowCount = async (table: string, column: string, values: string[]) =>
  (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE ${column} IN (${values.map(() => '?').join(',')})`).bind(...values).first<{ n: number }>())?.n ?? 0;
const exists = async (key: string) => (await env.MEDIA.head(key)) !== null;
const put = (key: string) => env.MEDIA.put(key, '{}');

function generation(accountId: string, id: string, expiresAt: number, keys: string[]): typeof generations.$inferInsert {
  return { id, accountId, kind: 'image', model: 'test-model', prompt: 'p', keys, createdAt: expiresAt - 30 * DAY, expiresAt };
}

function mediaJob(accountId: string, id: string, status: 'queued' | 'processing' | 'completed' | 'failed', updatedAt: number, keys: string[] | null): typeof mediaJobs.$inferInsert {
  return { id, accountId, kind: 'image', model: 'test-model', status, params: {}, base: 'https://gateway.test', holdId: `hold_${id}`, predictedMicros: 1, keys, createdAt: updatedAt, updatedAt };
}

function intent(accountId: string, id: string, status: 'open' | 'paid' | 'expired', expiresAt: number): typeof fundingIntents.$inferInsert {
  return { id, accountId, amountUsd: 5, amountMicros: 5_000_000 + Math.floor(Math.random() * 999_999), status, createdAt: expiresAt - 3_600_000, expiresAt };
}

/** A web job's Durable Object with something in it, so its purge shows. */
async function webJobObject(id: string): Promise<void> {
  await runInDurableObject(env.WEB_JOB.get(env.WEB_JOB.idFromName(id)), (_instance, state) => state.storage.put('marker', 1));
}
async function webJobObjectHolds(id: string): Promise<boolean> {
  return runInDurableObject(env.WEB_JOB.get(env.WEB_JOB.idFromName(id)), async (_instance, state) => (await state.storage.get('marker')) === 1);
}

describe('the storage sweep', () => {
  it('deletes only what is past its retention, objects with their rows, and a second run changes nothing', async () => {
    const db = database(env);
    const now = Date.now();
    const acct = crypto.randomUUID();
    const tag = crypto.randomUUID().slice(0, 8);
    const out = (name: string) => `outputs/${acct}/${name}.png`;

    await db.insert(generations).values([generation(acct, `gen_old_${tag}`, now - 1, [out('gen-old')]), generation(acct, `gen_new_${tag}`, now + DAY, [out('gen-new')])]).run();
    await db
      .insert(mediaJobs)
      .values([
        mediaJob(acct, `mj_done_${tag}`, 'completed', now - 32 * DAY, [out('job-old')]),
        mediaJob(acct, `mj_failed_${tag}`, 'failed', now - 32 * DAY, null),
        mediaJob(acct, `mj_open_${tag}`, 'processing', now - 32 * DAY, null),
        mediaJob(acct, `mj_new_${tag}`, 'completed', now - DAY, [out('job-new')]),
      ])
      .run();
    for (const name of ['gen-old', 'gen-new', 'job-old', 'job-new']) await put(out(name));

    const [oldJob, newJob] = [`crawl_old${tag}`, `crawl_new${tag}`];
    await db.insert(webJobs).values([{ id: oldJob, accountId: acct, kind: 'crawl', createdAt: now - 31 * DAY }, { id: newJob, accountId: acct, kind: 'crawl', createdAt: now - DAY }]).run();
    for (const key of [`results/${acct}/${oldJob}.json`, `results/${acct}/${oldJob}/items/0`, `results/${acct}/${newJob}.json`]) await put(key);
    await webJobObject(oldJob);
    await webJobObject(newJob);

    const ip = `198.51.100.${tag}`;
    await db.insert(ipDailyCounters).values([dayKeyBefore(now, 5), dayKeyBefore(now, 1), dayKeyBefore(now, 0)].map((day) => ({ ip, day, registrations: 1 }))).run();
    const [oldDay, keptDay] = [`0${tag.slice(0, 1)}-01-01`, dayKeyBefore(now, 29)];
    await db.insert(welcomeCreditDays).values([{ day: oldDay, grantedMicros: 1, grants: 1 }, { day: keptDay, grantedMicros: 1, grants: 1 }]).onConflictDoNothing().run();
    await db
      .insert(fundingIntents)
      .values([
        intent(acct, `pi_expired_${tag}`, 'expired', now - 31 * DAY),
        intent(acct, `pi_paid_${tag}`, 'paid', now - 31 * DAY),
        intent(acct, `pi_recent_${tag}`, 'expired', now - 29 * DAY),
        intent(acct, `pi_open_${tag}`, 'open', now + 3_600_000),
      ])
      .run();

    const first = await sweepStorage(env, now);
    expect(first).toMatchObject({ generations: 1, mediaJobs: 2, webJobs: 1, ipDays: 1, intents: 2 });
    expect(first.welcomeDays).toBeGreaterThanOrEqual(1);
    expect(first.objects).toBe(4); // gen-old, job-old, the old job's result set and its item

    expect(await rowCount('generations', 'id', [`gen_old_${tag}`, `gen_new_${tag}`])).toBe(1);
    expect(await exists(out('gen-old'))).toBe(false);
    expect(await exists(out('gen-new'))).toBe(true);
    expect(await rowCount('media_jobs', 'id', [`mj_done_${tag}`, `mj_failed_${tag}`])).toBe(0);
    expect(await rowCount('media_jobs', 'id', [`mj_open_${tag}`, `mj_new_${tag}`])).toBe(2);
    expect(await exists(out('job-old'))).toBe(false);
    expect(await exists(out('job-new'))).toBe(true);

    expect(await rowCount('web_jobs', 'id', [oldJob])).toBe(0);
    expect(await rowCount('web_jobs', 'id', [newJob])).toBe(1);
    expect(await exists(`results/${acct}/${oldJob}.json`)).toBe(false);
    expect(await exists(`results/${acct}/${oldJob}/items/0`)).toBe(false);
    expect(await exists(`results/${acct}/${newJob}.json`)).toBe(true);
    expect(await webJobObjectHolds(oldJob)).toBe(false);
    expect(await webJobObjectHolds(newJob)).toBe(true);

    expect(await rowCount('ip_daily_counters', 'ip', [ip])).toBe(2);
    expect(await rowCount('welcome_credit_days', 'day', [oldDay, keptDay])).toBe(1);
    expect(await rowCount('welcome_credit_days', 'day', [keptDay])).toBe(1);
    expect(await rowCount('funding_intents', 'id', [`pi_expired_${tag}`, `pi_paid_${tag}`])).toBe(0);
    expect(await rowCount('funding_intents', 'id', [`pi_recent_${tag}`, `pi_open_${tag}`])).toBe(2);

    expect(await sweepStorage(env, now)).toEqual(NOTHING);
  });

  it('deletes at most its batch per run: a backlog larger than a batch takes two runs', async () => {
    const db = database(env);
    const now = Date.now();
    const acct = crypto.randomUUID();
    const ip = `192.0.2.${crypto.randomUUID().slice(0, 8)}`;
    const ids = Array.from({ length: 8 }, (_, i) => `gen_batch_${acct}_${i}`);
    await db.insert(generations).values(ids.map((id, i) => generation(acct, id, now - 1 - i, [`outputs/${acct}/${i}.png`]))).run();
    for (let i = 0; i < 8; i++) await put(`outputs/${acct}/${i}.png`);
    await db.insert(ipDailyCounters).values(Array.from({ length: 8 }, (_, i) => ({ ip: `${ip}.${i}`, day: dayKeyBefore(now, 10 + i) }))).run();

    const limits = { rows: 5, objects: 5, webJobs: 5 };
    expect(await sweepStorage(env, now, limits)).toMatchObject({ generations: 5, objects: 5, ipDays: 5 });
    expect(await rowCount('generations', 'id', ids)).toBe(3);
    expect(await sweepStorage(env, now, limits)).toMatchObject({ generations: 3, objects: 3, ipDays: 3 });
    expect(await rowCount('generations', 'id', ids)).toBe(0);
    for (let i = 0; i < 8; i++) expect(await exists(`outputs/${acct}/${i}.png`)).toBe(false);
    expect(await sweepStorage(env, now, limits)).toEqual(NOTHING);
  });
});
