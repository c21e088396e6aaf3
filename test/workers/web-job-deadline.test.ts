import { runDurableObjectAlarm } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { JobView } from '../../durable-objects/web-job/types';
import { sha256Hex } from '../../src/accounts/credentials';
import { accountStub, adminCredit, register } from './helpers';

describe('a crawl job past its deadline', () => {
  it('settles with what it has instead of running on, and a job with nothing is free', async () => {
    const account = await register();
    await adminCredit(account.account_id, '1');
    const stub = accountStub(account.account_id);
    const hold = await stub.authorizeHold({ keyHash: await sha256Hex(account.api_key), minMicros: 50_000, maxMicros: 50_000, purpose: 'crawl' });
    if (!hold.ok) throw new Error(hold.reason);

    const id = `crawl_deadline${crypto.randomUUID().replaceAll('-', '')}`;
    const job = env.WEB_JOB.get(env.WEB_JOB.idFromName(id));
    await job.start({
      id,
      accountId: account.account_id,
      holdId: hold.holdId,
      base: 'https://gateway.test',
      params: { kind: 'crawl', url: 'https://example.com/', format: 'markdown', limit: 10 },
      guard: { allowHosts: [], ownHosts: [] },
      deadlineMs: 0,
    });
    // The alarm fires on its own; run it by hand too in case it has not yet.
    await runDurableObjectAlarm(job);
    const read = async () => (await job.view(account.account_id)) as JobView | null;
    let view = await read();
    for (let i = 0; i < 50 && view !== null && view.status === 'running'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      view = await read();
    }
    expect(view).toMatchObject({ status: 'failed', cost: 0, page_count: 0, result_url: null, error: expect.stringMatching(/deadline/) });
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
    expect(await job.view(crypto.randomUUID())).toBeNull();
  });
});
