import { expireAccount } from '../accounts/expiry';
import { runMediaJob } from '../products/render/jobs';
import { pollVideoJob } from '../products/videos/job';
import { logJob } from '../observability/request-log';
import { isQueueMessage, type QueueMessage } from './messages';

/** Retries wait 5 s, doubling per attempt, at most 5 minutes. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(300, 5 * 2 ** attempts);
}

/**
 * The queue consumer: one handler per message kind; a failure retries that message alone. A body
 * of no known kind (sent by another deploy, or not a message at all) is acked and logged as
 * `dropped`: retrying cannot make it known. `clock` is when the batch is read (a render's claim
 * lease is judged by it; tests move it).
 */
export async function consumeQueue(batch: MessageBatch<unknown>, env: Env, _ctx?: ExecutionContext, clock: () => number = Date.now): Promise<void> {
  for (const message of batch.messages) {
    const started = Date.now();
    const body = message.body;
    if (!isQueueMessage(body)) {
      logJob({ queue: batch.queue, kind: kindOf(body), attempt: message.attempts, outcome: 'dropped', ms: 0 });
      message.ack();
      continue;
    }
    const step = { queue: batch.queue, kind: body.kind, ...subjectOf(body), attempt: message.attempts };
    try {
      await handle(env, body, message.attempts, clock());
      message.ack();
      logJob({ ...step, outcome: 'done', ms: Date.now() - started });
    } catch (err) {
      logJob({ ...step, outcome: 'retry', ms: Date.now() - started, error: String(err).slice(0, 300) });
      message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
    }
  }
}

/** Runs one message's step. Exhaustive: a kind added to `QueueMessage` without a case here does not compile. */
export async function handle(env: Env, body: QueueMessage, attempts: number, now: number): Promise<void> {
  switch (body.kind) {
    case 'account.expire':
      return expireAccount(env, body);
    case 'image.render':
    case 'speech.render':
      return runMediaJob(env, body.jobId, attempts, now);
    case 'video.poll':
      return pollVideoJob(env, body.jobId);
    default:
      return unhandled(body);
  }
}

function unhandled(body: never): never {
  throw new Error(`no handler for queue message ${JSON.stringify(body)}`);
}

/** What a message's log line names: its job, or the account it is about. */
function subjectOf(body: QueueMessage): { job_id?: string; account_id?: string } {
  if ('jobId' in body) return { job_id: body.jobId };
  return 'accountId' in body ? { account_id: body.accountId } : {};
}

/** The kind a dropped body claims, shortened, for its log line. */
function kindOf(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'kind' in body && typeof body.kind === 'string') return body.kind.slice(0, 60);
  return typeof body;
}
