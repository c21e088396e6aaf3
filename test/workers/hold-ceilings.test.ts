import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { MAX_OPEN_HOLDS, MAX_OPEN_JOB_HOLDS } from '../../durable-objects/account/holds';
import { sha256Hex } from '../../src/accounts/credentials';
import { createApp } from '../../src/app';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, register } from './helpers';

/**
 * D3's ceilings: holds of requests in flight (chat) keep their 128, and long-lived holds (image and
 * video jobs, crawl, extract, sync renders recorded as jobs) have their own, so a funded account
 * can queue 500 jobs and still chat.
 */

const app = createApp();
const chatUrl = inject('chatUpstreamUrl');

async function fundedAgent(usd: string) {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return { ...agent, stub: accountStub(agent.account_id), keyHash: await sha256Hex(agent.api_key) };
}

describe('hold ceilings', () => {
  it('lets a funded account queue 500 image jobs through the API and still chat', async () => {
    const agent = await fundedAgent('20');
    // The jobs' messages are recorded, not rendered: only the holds and rows matter here.
    const jobsEnv = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, JOBS: { send: async () => {} } } as unknown as Env;
    const submit = (i: number) =>
      app.fetch(
        new Request('https://gateway.test/v1/images/jobs', {
          method: 'POST',
          headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'openai/gpt-image-1-mini', prompt: `job ${i}`, size: '1024x1024', quality: 'low' }),
        }),
        jobsEnv,
        createExecutionContext(),
      );
    const statuses: number[] = [];
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => submit(batch * 50 + i)));
      statuses.push(...answers.map((res) => res.status));
    }
    expect(statuses.filter((status) => status === 202)).toHaveLength(500);
    const open = await env.DB.prepare("SELECT COUNT(*) AS n FROM media_jobs WHERE account_id = ? AND status = 'queued'").bind(agent.account_id).first<{ n: number }>();
    expect(open?.n).toBe(500);
    expect((await agent.stub.snapshot()).heldMicros).toBeGreaterThan(0);

    const chatEnv = { ...env, OPENAI_API_KEY: 'sk-ceilings', OPENAI_BASE_URL: `${chatUrl}/v1` } as Env;
    const chat = await app.fetch(
      new Request('https://gateway.test/v1/chat/completions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 20, messages: [{ role: 'user', content: 'Hi' }] }),
      }),
      chatEnv,
      createExecutionContext(),
    );
    expect(chat.status).toBe(200);
    expect(((await chat.json()) as { choices: unknown[] }).choices).toHaveLength(1);
  }, 60_000);

  it('keeps one ceiling per class: job holds up to theirs, chat holds up to 128 beside them', async () => {
    const { stub, keyHash } = await fundedAgent('100');
    const hold = (purpose: string) => stub.authorizeHold({ keyHash, minMicros: 1, maxMicros: 1, purpose, ttlMs: 3_600_000 });
    const jobs = await Promise.all(Array.from({ length: MAX_OPEN_JOB_HOLDS }, (_, i) => hold(['image-job:m', 'video:m', 'crawl', 'extract'][i % 4]!)));
    expect(jobs.every((result) => result.ok)).toBe(true);
    expect(await hold('video:m')).toEqual({ ok: false, reason: 'too_many_holds', openHolds: MAX_OPEN_JOB_HOLDS });

    const chats = await Promise.all(Array.from({ length: MAX_OPEN_HOLDS }, () => hold('chat:m')));
    expect(chats.every((result) => result.ok)).toBe(true);
    expect(await hold('chat:m')).toEqual({ ok: false, reason: 'too_many_holds', openHolds: MAX_OPEN_HOLDS });

    // Closing a job hold makes room for a job, not for a chat.
    const first = jobs[0]!;
    if (!first.ok) throw new Error('unreachable');
    await stub.release(first.holdId);
    expect(await hold('chat:m')).toMatchObject({ ok: false, reason: 'too_many_holds' });
    expect(await hold('image-job:m')).toMatchObject({ ok: true });
  }, 60_000);
});
