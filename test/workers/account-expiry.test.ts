import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import type { QueueMessage } from '../../src/queue/messages';
import { accountPrefix } from '../../src/media/keys';
import { adminCredit, bearer, call, expectError, register } from './helpers';

const DAY = 86_400_000;

/** Runs the cron at `now`, then hands the messages it queued to the real consumer. */
type ExpireMessage = Extract<QueueMessage, { kind: 'account.expire' }>;

/** Runs the cron at `now`; answers the account expiries it sent. */
async function sweepAt(now: number): Promise<ExpireMessage[]> {
  const sent: QueueMessage[] = [];
  const queue = env.JOBS;
  // Capture what the cron sends while still sending it to the real queue.
  const recording = {
    ...env,
    JOBS: {
      send: (body: QueueMessage) => (sent.push(body), queue.send(body)),
      sendBatch: (batch: { body: QueueMessage }[]) => (sent.push(...batch.map((m) => m.body)), queue.sendBatch(batch)),
    } as unknown as Queue,
  };
  // The cron's run is over when its handler's promise is: nothing of it is left to waitUntil.
  await worker.scheduled(createScheduledController({ scheduledTime: now, cron: '*/5 * * * *' }), recording);

  const batch = createMessageBatch<QueueMessage>(
    'ai-gateway-jobs',
    sent.map((body, i) => ({ id: `m${i}`, timestamp: new Date(now), attempts: 1, body })),
  );
  const queueCtx = createExecutionContext();
  await worker.queue(batch, env, queueCtx);
  const result = await getQueueResult(batch, queueCtx);
  expect(result.retryMessages).toEqual([]);
  return sent.filter((message): message is ExpireMessage => message.kind === 'account.expire');
}

describe('the expiry sweep', () => {
  it('deletes an unfunded, unclaimed account past its expiry, with all its data', async () => {
    const account = await register();
    const object = `${accountPrefix('uploads', account.account_id)}photo.png`;
    await env.MEDIA.put(object, 'png bytes');

    const sent = await sweepAt(Date.now() + 31 * DAY);
    expect(sent).toContainEqual({ kind: 'account.expire', accountId: account.account_id, now: expect.any(Number) });

    await expectError(await call('/agent/account', bearer(account.api_key)), 401, 'invalid_api_key', 'authentication_error');
    expect(await env.MEDIA.get(object)).toBeNull();
    const row = await env.DB.prepare('SELECT id FROM accounts WHERE id = ?').bind(account.account_id).first();
    expect(row).toBeNull();
  });

  it('leaves an account alone before its expiry', async () => {
    const account = await register();
    const sent = await sweepAt(Date.now() + 29 * DAY);
    expect(sent.map((m) => m.accountId)).not.toContain(account.account_id);
    expect((await call('/agent/account', bearer(account.api_key))).status).toBe(200);
  });

  it('never deletes a funded account', async () => {
    const account = await register();
    await adminCredit(account.account_id, '5');
    const sent = await sweepAt(Date.now() + 365 * DAY);
    expect(sent.map((m) => m.accountId)).not.toContain(account.account_id);
    expect(await (await call('/agent/account', bearer(account.api_key))).json()).toMatchObject({ balance_usd: '5.000000' });
  });

  it('spares an account funded after the sweep read D1, and a repeated message changes nothing', async () => {
    const account = await register();
    // Funded behind D1's back (as a payment rail crediting the Durable Object directly would).
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(account.account_id));
    await stub.credit({ amountMicros: 1_000_000, idempotencyKey: 'late-funding', source: 'usdc' });

    const message: QueueMessage = { kind: 'account.expire', accountId: account.account_id, now: Date.now() + 31 * DAY };
    for (let delivery = 0; delivery < 2; delivery++) {
      const batch = createMessageBatch<QueueMessage>('ai-gateway-jobs', [{ id: `d${delivery}`, timestamp: new Date(), attempts: 1, body: message }]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env, ctx);
      expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`d${delivery}`]);
    }
    expect((await call('/agent/account', bearer(account.api_key))).status).toBe(200);
    const row = await env.DB.prepare('SELECT funded_at, expires_at FROM accounts WHERE id = ?').bind(account.account_id).first();
    expect(row).toMatchObject({ funded_at: expect.any(Number), expires_at: null });
  });
});
