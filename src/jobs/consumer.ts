import { runMediaJob } from '../media/jobs';
import { pollVideoJob } from '../media/videos/job';
import { expireAccount } from './account-expiry';
import type { JobMessage } from './messages';

/**
 * The queue consumer: one handler per message kind; a failure retries that message alone. `clock`
 * is when the batch is read (a render's claim lease is judged by it; tests move it).
 */
export async function consumeJobs(batch: MessageBatch<JobMessage>, env: Env, _ctx?: ExecutionContext, clock: () => number = Date.now): Promise<void> {
  for (const message of batch.messages) {
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
    } catch (err) {
      console.error(JSON.stringify({ queue: 'jobs', kind: message.body.kind, error: String(err) }));
      message.retry({ delaySeconds: Math.min(300, 5 * 2 ** message.attempts) });
    }
  }
}
