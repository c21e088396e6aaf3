import { runMediaJob } from '../jobs/render-jobs';
import { pollVideoJob } from '../jobs/video-jobs';
import { expireAccount } from '../jobs/account-expiry';
import type { JobMessage } from './messages';
import { logJob } from '../observability/request-log';

/**
 * The queue consumer: one handler per message kind; a failure retries that message alone. `clock`
 * is when the batch is read (a render's claim lease is judged by it; tests move it).
 */
export async function consumeJobs(batch: MessageBatch<JobMessage>, env: Env, _ctx?: ExecutionContext, clock: () => number = Date.now): Promise<void> {
  for (const message of batch.messages) {
    const started = Date.now();
    const step = { queue: batch.queue, kind: message.body.kind, ...jobOf(message.body), attempt: message.attempts };
    try {
      switch (message.body.kind) {
        case 'account.expire':
          await expireAccount(env, message.body);
          break;
        case 'image.render':
        case 'speech.render':
          await runMediaJob(env, message.body.jobId, message.attempts, clock());
          break;
        case 'video.poll':
          await pollVideoJob(env, message.body.jobId);
          break;
      }
      message.ack();
      logJob({ ...step, outcome: 'done', ms: Date.now() - started });
    } catch (err) {
      logJob({ ...step, outcome: 'retry', ms: Date.now() - started, error: String(err).slice(0, 300) });
      message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
    }
  }
}

/** What a message's log line names: its job, or the account it is about. */
function jobOf(body: JobMessage): { job_id?: string; account_id?: string } {
  if ('jobId' in body) return { job_id: body.jobId };
  return 'accountId' in body ? { account_id: body.accountId } : {};
}
