import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { consumeQueue } from './consumer';
import { isQueueMessage, type QueueMessage } from './messages';

/** One delivery of `body`, with what the consumer did to it and the log line it wrote. */
async function deliver(body: unknown): Promise<{ acked: boolean; retried: boolean; line: Record<string, unknown> | undefined }> {
  const log = vi.spyOn(console, 'log');
  const seen = { acked: false, retried: false };
  const message = { id: crypto.randomUUID(), timestamp: new Date(), attempts: 1, body, ack: () => void (seen.acked = true), retry: () => void (seen.retried = true) };
  await consumeQueue({ queue: 'ai-gateway-jobs', messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>, env);
  const line = log.mock.calls.map((args) => String(args[0])).find((text) => text.startsWith('{"event":"job"'));
  return { ...seen, line: line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>) };
}

describe('queue consumer', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([
    ['a kind no deploy of this Worker handles', { kind: 'settlement.retry', jobId: 'x' }, 'settlement.retry'],
    ['a body with no kind', { jobId: 'x' }, 'object'],
    ['a body that is not an object', 'hello', 'string'],
    ['a null body', null, 'object'],
  ])('acks and logs %s as dropped, never retrying it', async (_, body, kind) => {
    const outcome = await deliver(body);
    expect(outcome).toMatchObject({ acked: true, retried: false });
    expect(outcome.line).toMatchObject({ event: 'job', kind, outcome: 'dropped', attempt: 1 });
  });

  it('hands each known kind to its handler: a poll of a job that does not exist is done, not dropped', async () => {
    const outcome = await deliver({ kind: 'video.poll', jobId: 'vidjob_missing' } satisfies QueueMessage);
    expect(outcome).toMatchObject({ acked: true, retried: false });
    expect(outcome.line).toMatchObject({ kind: 'video.poll', job_id: 'vidjob_missing', outcome: 'done' });
  });

  it('knows every kind of QueueMessage and nothing else', () => {
    const known: QueueMessage[] = [
      { kind: 'account.expire', accountId: 'a', now: 0 },
      { kind: 'image.render', jobId: 'j' },
      { kind: 'speech.render', jobId: 'j' },
      { kind: 'video.poll', jobId: 'j' },
    ];
    for (const body of known) expect(isQueueMessage(body)).toBe(true);
    expect(isQueueMessage({ kind: 'toString' })).toBe(false);
    expect(isQueueMessage({ kind: 'image.rendered', jobId: 'j' })).toBe(false);
  });
});
